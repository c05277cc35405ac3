/* HSX C executive: a FAT12/16/32 file system (long names, directories) on a block device,
 * as an hsx_fs for the file SVCs: the C side of the Python executive's `fat` backend
 * (docs/backends.md). Built on ChaN's FatFs, which hsx.board.build fetches from PyPI
 * (the fatfs-ng source distribution) and compiles with fs/ffconf.h. */
#ifndef HSX_FAT_H
#define HSX_FAT_H

#include "hsx_hal.h"

/* Mount the FAT volume on `device` (512-byte blocks); 0 and `out` filled in, or a
 * negative errno (-HSX_EIO: no FAT file system on it). One volume at a time. */
int hsx_fat_mount(const hsx_block_device *device, hsx_fs *out);

/* Write back what the volume still holds and forget it. */
void hsx_fat_unmount(void);

#endif
