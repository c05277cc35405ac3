/* HSX C executive: what a board provides (docs/port.md, "Porting to a board").
 *
 * Each backend is a small struct of functions with a context pointer, so a board picks
 * implementations by filling in an hsx_hal, never by editing the executive: the same
 * interfaces as the Python executive's backends (hsx.kernel FileSystem, BlockDevice,
 * PersistenceStore, Bus). A NULL backend means the board has none: the SVCs that need
 * it answer -ENOSYS and the features that need it are left out of the hello.
 *
 * Return values: 0 or a positive count on success, a negative errno (HSX_E*) on error.
 */
#ifndef HSX_HAL_H
#define HSX_HAL_H

#include <stdint.h>

/* errno values the guest sees (docs/syscalls.md), negated in R0 */
#define HSX_EPERM 1
#define HSX_ENOENT 2
#define HSX_ESRCH 3
#define HSX_EIO 5
#define HSX_ENOEXEC 8
#define HSX_EBADF 9
#define HSX_EAGAIN 11
#define HSX_EACCES 13
#define HSX_EEXIST 17
#define HSX_ENOTDIR 20
#define HSX_EISDIR 21
#define HSX_EINVAL 22
#define HSX_EMFILE 24
#define HSX_ENOSPC 28
#define HSX_ESPIPE 29
#define HSX_ENAMETOOLONG 36
#define HSX_ENOSYS 0xFF              /* R0 = 0xFFFFFF01 for an unknown SVC, as the host does */

/* A byte-addressed non-volatile store for persistent values: FRAM (page_size 1, no
 * erase) or NOR flash (writes only clear bits; erase sets a page to 0xFF). The value
 * store (hsx_store.c) keeps a log of CRC-checked records in it, so a power cut loses at
 * most the record being written and never corrupts an older one. */
typedef struct hsx_persist {
    void *ctx;
    uint32_t size;          /* bytes */
    uint32_t page_size;     /* erase unit in bytes (a power of two); 1 = no erase (FRAM) */
    int (*read)(void *ctx, uint32_t addr, uint8_t *out, uint32_t len);
    int (*write)(void *ctx, uint32_t addr, const uint8_t *data, uint32_t len);
    int (*erase)(void *ctx, uint32_t page_addr);     /* NULL when page_size is 1 */
} hsx_persist;

/* A block device (an SD card over SPI, an image file on the host). */
typedef struct hsx_block_device {
    void *ctx;
    uint32_t block_size;    /* 512 */
    uint32_t block_count;
    int (*read)(void *ctx, uint32_t lba, uint8_t *out, uint32_t count);
    int (*write)(void *ctx, uint32_t lba, const uint8_t *data, uint32_t count);
    int (*sync)(void *ctx);
} hsx_block_device;

/* What a guest's OPEN flags ask of a file system, decoded in one place for every hsx_fs.
 * The flags (docs/syscalls.md; lib/include/hsx_fs.h names them for the guest): an access
 * mode, RDONLY 0x01, WRONLY 0x02 or RDWR 0x03 (none given: RDWR), plus CREAT 0x04,
 * TRUNC 0x08 (only with write access) and APPEND 0x10. Flags 0 are RDWR | CREAT. */
typedef struct hsx_open_mode {
    uint8_t readable, writable, create, truncate, append;
} hsx_open_mode;

static inline hsx_open_mode hsx_open_mode_of(uint32_t flags)
{
    hsx_open_mode mode;
    uint32_t access;
    if (flags == 0)
        flags = 0x03 | 0x04;
    access = flags & 0x03 ? flags & 0x03 : 0x03;
    mode.readable = (access & 0x01) != 0;
    mode.writable = (access & 0x02) != 0;
    mode.create = (flags & 0x04) != 0;
    mode.truncate = (flags & 0x08) != 0 && mode.writable;
    mode.append = (flags & 0x10) != 0;
    return mode;
}

/* A file system for SVC module 0x04 (paths are the guest's, '/'-separated, absolute
 * within the file system). Flags (hsx_open_mode_of) and whence as in docs/syscalls.md. */
typedef struct hsx_fs {
    void *ctx;
    int (*open)(void *ctx, const char *path, uint32_t flags);            /* >= 0: a file id */
    int (*read)(void *ctx, int file, uint8_t *out, uint32_t len);
    int (*write)(void *ctx, int file, const uint8_t *data, uint32_t len);
    int (*seek)(void *ctx, int file, int32_t offset, uint32_t whence);  /* the new position */
    int (*close)(void *ctx, int file);
    int (*listdir)(void *ctx, const char *path, char *out, uint32_t size); /* docs/syscalls.md */
    int (*remove)(void *ctx, const char *path);
    int (*rename)(void *ctx, const char *from, const char *to);
    int (*mkdir)(void *ctx, const char *path);
} hsx_fs;

/* A CAN controller (SVC module 0x02). id bit 31 set: 29-bit extended id. */
typedef struct hsx_can {
    void *ctx;
    int (*send)(void *ctx, uint32_t id, const uint8_t *data, uint32_t len);
    int (*recv)(void *ctx, uint32_t *id, uint8_t *data, uint32_t *len);  /* 0, or -HSX_EAGAIN */
} hsx_can;

/* A byte stream to the host (a UART, a pty, a socket). Received bytes are handed to
 * hsx_link_received() (hsx_exec.h), from an interrupt if the board likes. */
typedef struct hsx_link {
    void *ctx;
    /* Queue `len` bytes for sending; returns when they are queued (may wait for room). */
    int (*write)(void *ctx, const uint8_t *data, uint32_t len);
    /* How many bytes write() takes now without waiting (the free space of the UART's
     * send buffer). Events are sent only when a whole one fits, so a host that reads
     * slowly makes the event queue drop its oldest instead of stalling the board (replies
     * still wait). NULL: every write may wait. */
    uint32_t (*room)(void *ctx);
} hsx_link;

typedef struct hsx_hal {
    uint32_t (*now_ms)(void);             /* a monotonic millisecond tick (SysTick, clock_gettime) */
    const hsx_link *link;                 /* NULL: no protocol (firmware using the direct API only) */
    const hsx_persist *persist;           /* NULL: values do not persist */
    const hsx_fs *fs;                     /* NULL: file SVCs answer -ENOSYS */
    const hsx_can *can;                   /* NULL: CAN SVCs answer -ENOSYS */
    void (*diagnostic)(const char *text); /* printf-free diagnostics (a debug UART); may be NULL */
    const char *board;                    /* "host", "mps2-an385", ... (the hello's `board`) */
    uint32_t boot;                        /* differs at every reset: a counter kept in flash,
                                             a random number (the hello's `boot`); 0: the
                                             executive takes the tick at its first poll */
} hsx_hal;

#endif
