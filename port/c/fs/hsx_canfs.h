/* HSX C executive: files served by another node over CAN (docs/backends.md, "Files over
 * CAN"), as an hsx_fs: the C side of the Python executive's `can` backend. Each call is a
 * request of the hsxfs/1 protocol (hsx.kernel.filesystems.canproto) carried by ISO-TP
 * (ISO 15765-2, classic 8-byte frames, hsx_isotp.c) on the board's hsx_can. Nothing
 * waits for ever: no answer within the timeout is -ETIMEDOUT, a broken transfer -EIO. */
#ifndef HSX_CANFS_H
#define HSX_CANFS_H

#include "hsx_hal.h"

typedef struct hsx_canfs_config {
    const hsx_can *can;
    uint32_t (*now_ms)(void);       /* the board's tick */
    uint32_t server_id, client_id;  /* 11-bit ids: 0x7E0 and 0x7E8 by default */
    uint32_t timeout_ms;            /* per request (1000 by default) */
} hsx_canfs_config;

/* The file system on `config`'s bus (kept by reference): `out` filled in. */
void hsx_canfs_init(const hsx_canfs_config *config, hsx_fs *out);

#endif
