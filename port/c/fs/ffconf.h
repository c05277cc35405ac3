/* HSX C executive: the configuration ChaN's FatFs is built with for the FAT file system
 * (hsx_fat.c). FatFs itself is not in this repository: hsx.board.build fetches it from
 * the fatfs-ng source distribution on PyPI (hsx.thirdparty.FATFS) and compiles it with
 * this file, which must carry the revision of that FatFs (FFCONF_DEF).
 *
 * What the executive asks of it: read and write, long names in UTF-8, FAT12/16/32 on
 * 512-byte sectors, no clock (files carry a fixed date), no heap (the long-name buffer
 * is static, file objects share the volume's sector buffer), one volume, no locking
 * (the executive is single-threaded and checks what a task may open). */
#define FFCONF_DEF 80386

#define FF_FS_READONLY 0
#define FF_FS_MINIMIZE 0        /* f_stat, f_opendir, f_unlink, f_mkdir, f_rename... */
#define FF_USE_FIND 0
#define FF_USE_MKFS 0           /* images are made on the host: hsx fs mkfs */
#define FF_USE_FASTSEEK 0
#define FF_USE_EXPAND 0
#define FF_USE_CHMOD 0
#define FF_USE_LABEL 0
#define FF_USE_FORWARD 0
#define FF_USE_STRFUNC 0
#define FF_PRINT_LLI 0
#define FF_PRINT_FLOAT 0
#define FF_STRF_ENCODE 3

#define FF_CODE_PAGE 437        /* short names as DOS and pyfatfs write them */
#define FF_USE_LFN 1            /* long names, with a static working buffer */
#define FF_MAX_LFN 255
#define FF_LFN_UNICODE 2        /* names as UTF-8, as the guests' paths are */
#define FF_LFN_BUF 255
#define FF_SFN_BUF 12
#define FF_FS_RPATH 0           /* every path is absolute: the guest's '/' is the root */
#define FF_PATH_DEPTH 10

#define FF_VOLUMES 1
#define FF_STR_VOLUME_ID 0
#define FF_VOLUME_STRS "RAM", "NAND", "CF", "SD", "SD2", "USB", "USB2", "USB3"
#define FF_MULTI_PARTITION 0
#define FF_MIN_SS 512
#define FF_MAX_SS 512
#define FF_LBA64 0
#define FF_MIN_GPT 0x10000000
#define FF_USE_TRIM 0

#define FF_FS_TINY 1            /* files use the volume's sector buffer: ~40 bytes each */
#define FF_FS_EXFAT 0
#define FF_FS_NORTC 1
#define FF_NORTC_MON 1
#define FF_NORTC_MDAY 1
#define FF_NORTC_YEAR 2026
#define FF_FS_CRTIME 0
#define FF_FS_NOFSINFO 0
#define FF_FS_LOCK 0
#define FF_FS_REENTRANT 0
#define FF_FS_TIMEOUT 1000
