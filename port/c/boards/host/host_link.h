/* The host board's link: the framed protocol (docs/wire.md) on a TCP port, on stdio or
 * on a pty (docs/port.md, "The host build"). */
#ifndef HOST_LINK_H
#define HOST_LINK_H

#include "hsx_hal.h"

/* Serve on `spec` -- "tcp:HOST:PORT" (PORT 0: any free one), "stdio" or "pty" -- until
 * SIGINT or SIGTERM: sets hal->link and hal->boot, starts the executive on `hal`, prints
 * the URL a client connects to (socket://HOST:PORT, serial:///dev/pts/N) as one line on
 * stdout (stderr for stdio, whose stdout is the link), and runs it. Returns the exit
 * status: 0 when stopped, 2 when the link cannot be opened (after saying why). */
int host_link_serve(hsx_hal *hal, const char *spec);

#endif
