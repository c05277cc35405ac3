/* The host board's HAL: the OS clock, flash emulated in a file, a directory or a FAT
 * image as the guests' file system (docs/port.md, "The host build"). */
#ifndef HOST_HAL_H
#define HOST_HAL_H

#include "hsx_hal.h"

typedef struct host_options {
    const char *root;           /* the guests' file system: a directory (NULL: none) */
    const char *fat;            /* ... or a FAT image (a build with HSX_FAT: FatFs) */
    const char *can;            /* the CAN bus relay, tcp:HOST:PORT (NULL: no CAN) */
    int can_fs;                 /* ... and the guests' files served over it */
    const char *persist;        /* the flash image file (NULL: values do not persist) */
    uint32_t flash_size, flash_page;
} host_options;

/* Fill in `hal` for the host; returns 0, or -1 after printing why (a file that cannot
 * be used). */
int host_hal_init(hsx_hal *hal, const host_options *options);

#endif
