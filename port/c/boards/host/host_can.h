/* The host board's CAN controller: a relayed bus over TCP (host_can.c). */
#ifndef HOST_CAN_H
#define HOST_CAN_H

#include "hsx_hal.h"

/* Connect to the relay at `spec` (tcp:HOST:PORT); 0 and *can set, or -1 after printing
 * why. */
int host_can_open(const char *spec, const hsx_can **can);

#endif
