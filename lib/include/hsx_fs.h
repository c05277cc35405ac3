/* hsx_fs.h: the sandboxed file system (SVC module 0x04, docs/syscalls.md).
 *
 * Every call returns what the SVC returns in R0: a count, a descriptor or a position
 * (>= 0), or a negative errno (-HSX_ENOENT ...).  Paths are inside the executive's
 * sandbox; a leading '/' is its root.  <stdio.h>'s FILE streams are built on these. */
#ifndef _HSX_FS_H
#define _HSX_FS_H
#include <hsx_sys.h>

#define HSX_FS_FN_OPEN 0x00
#define HSX_FS_FN_READ 0x01
#define HSX_FS_FN_WRITE 0x02
#define HSX_FS_FN_CLOSE 0x03
#define HSX_FS_FN_SEEK 0x04
#define HSX_FS_FN_LISTDIR 0x0A
#define HSX_FS_FN_DELETE 0x0B
#define HSX_FS_FN_RENAME 0x0C
#define HSX_FS_FN_MKDIR 0x0D

/* Open flags: an access mode, plus CREAT/TRUNC/APPEND. */
#define HSX_O_RDONLY 0x01
#define HSX_O_WRONLY 0x02
#define HSX_O_RDWR 0x03
#define HSX_O_CREAT 0x04
#define HSX_O_TRUNC 0x08
#define HSX_O_APPEND 0x10

/* SEEK origins (as SEEK_SET, SEEK_CUR, SEEK_END). */
#define HSX_SEEK_SET 0
#define HSX_SEEK_CUR 1
#define HSX_SEEK_END 2

/* Negative results are these errno values, negated. */
#define HSX_ENOENT 2
#define HSX_EIO 5         /* a device error; files over CAN: a broken transfer */
#define HSX_EBADF 9
#define HSX_EBUSY 16       /* FAT: the file or directory is open */
#define HSX_EEXIST 17
#define HSX_ENOTDIR 20
#define HSX_EISDIR 21
#define HSX_EINVAL 22
#define HSX_EMFILE 24
#define HSX_ENOSPC 28
#define HSX_ESPIPE 29
#define HSX_ENOTEMPTY 39
#define HSX_ETIMEDOUT 110  /* files over CAN: no answer from the server */

#define HSX_FD_STDIN 0
#define HSX_FD_STDOUT 1
#define HSX_FD_STDERR 2

/* A descriptor (>= 3) for `path`. */
static inline int hsx_fs_open(const char *path, unsigned flags) {
    return (int)HSX_SVC2(4, 0, path, flags);
}
/* Bytes read into `buf` (0 at the end of the file); fd 0 waits for input. */
static inline int hsx_fs_read(int fd, void *buf, unsigned len) {
    return (int)HSX_SVC3(4, 1, fd, buf, len);
}
/* Bytes written (at most 65535 per call). */
static inline int hsx_fs_write(int fd, const void *buf, unsigned len) {
    return (int)HSX_SVC3(4, 2, fd, buf, len);
}
static inline int hsx_fs_close(int fd) { return (int)HSX_SVC1(4, 3, fd); }
/* The new position; a position past the end is allowed (a write there fills zeros). */
static inline int hsx_fs_seek(int fd, int offset, int whence) {
    return (int)HSX_SVC3(4, 4, fd, offset, whence);
}
/* The names in directory `path`, sorted, separated by '\n' (directories end in '/'),
 * written to `buf` without a terminating zero: the bytes written. */
static inline int hsx_fs_listdir(const char *path, char *buf, unsigned size) {
    return (int)HSX_SVC3(4, 0x0A, path, buf, size);
}
/* Remove a file or an empty directory. */
static inline int hsx_fs_delete(const char *path) { return (int)HSX_SVC1(4, 0x0B, path); }
/* Fails with -HSX_EEXIST when `new_path` exists. */
static inline int hsx_fs_rename(const char *old_path, const char *new_path) {
    return (int)HSX_SVC2(4, 0x0C, old_path, new_path);
}
static inline int hsx_fs_mkdir(const char *path) { return (int)HSX_SVC1(4, 0x0D, path); }
#endif
