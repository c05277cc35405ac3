/* The host board's HAL (POSIX): tick from clock_gettime, NOR flash emulated in a file
 * (written a byte at a time, so a killed process leaves a torn record as a power cut
 * would), and a host directory as the file system of SVC module 0x04 with the rules of
 * hsx.kernel.filesystem.SandboxFS: paths stay inside the root, every call reopens the
 * file (a file deleted under an open descriptor fails that call), the host's errno.
 */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE
#include "host_hal.h"
#include "host_can.h"
#include "hsx_canfs.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#ifdef HSX_FAT
#include "hsx_fat.h"
#endif

/* ---- tick --------------------------------------------------------------------------- */

static uint32_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint32_t)((uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u);
}

static void diagnostic(const char *text) { fprintf(stderr, "hsx-exec-host: %s\n", text); }

/* The guest's errno for a host one (the numbers of docs/syscalls.md are Linux's). */
static int guest_errno(int e)
{
    switch (e) {
    case EPERM: return -HSX_EPERM;
    case ENOENT: return -HSX_ENOENT;
    case EACCES: return -HSX_EACCES;
    case EEXIST: return -HSX_EEXIST;
    case ENOTDIR: return -HSX_ENOTDIR;
    case EISDIR: return -HSX_EISDIR;
    case EINVAL: return -HSX_EINVAL;
    case EMFILE: return -HSX_EMFILE;
    case ENOSPC: return -HSX_ENOSPC;
    case ENAMETOOLONG: return -HSX_ENAMETOOLONG;
    case EBADF: return -HSX_EBADF;
    default: return -HSX_EIO;
    }
}

/* ---- flash in a file ---------------------------------------------------------------------- */

static struct flash { int fd; } flash;

static int flash_read(void *ctx, uint32_t addr, uint8_t *out, uint32_t len)
{
    (void)ctx;
    return pread(flash.fd, out, len, addr) == (ssize_t)len ? 0 : -HSX_EIO;
}

/* NOR flash: a write only clears bits. One byte per call, in a random order, so a
 * process killed mid-write leaves a torn record as a power cut mid-program would (any
 * of its bytes written, any not). */
static int flash_write(void *ctx, uint32_t addr, const uint8_t *data, uint32_t len)
{
    uint32_t i, start = len ? (uint32_t)rand() % len : 0;
    (void)ctx;
    for (i = 0; i < len; i++) {
        uint32_t at = (start + i * 7u) % len;      /* 7 is coprime to the record's 16 */
        uint8_t old;
        if (len % 7 == 0)
            at = (start + i) % len;
        if (pread(flash.fd, &old, 1, addr + at) != 1)
            return -HSX_EIO;
        old &= data[at];
        if (pwrite(flash.fd, &old, 1, addr + at) != 1)
            return -HSX_EIO;
    }
    return 0;
}

static hsx_persist persist;

static int flash_erase(void *ctx, uint32_t page_addr)
{
    uint8_t ones[256];
    uint32_t done = 0;
    (void)ctx;
    memset(ones, 0xFF, sizeof ones);
    while (done < persist.page_size) {
        uint32_t n = persist.page_size - done < sizeof ones ? persist.page_size - done : sizeof ones;
        if (pwrite(flash.fd, ones, n, page_addr + done) != (ssize_t)n)
            return -HSX_EIO;
        done += n;
    }
    return 0;
}

static int flash_open(const host_options *o)
{
    struct stat st;
    uint8_t ones[256];
    flash.fd = open(o->persist, O_RDWR | O_CREAT, 0644);
    if (flash.fd < 0 || fstat(flash.fd, &st) != 0) {
        fprintf(stderr, "hsx-exec-host: %s: %s\n", o->persist, strerror(errno));
        return -1;
    }
    memset(ones, 0xFF, sizeof ones);
    while ((uint64_t)st.st_size < o->flash_size) {     /* a new flash is erased */
        uint32_t n = o->flash_size - (uint32_t)st.st_size;
        if (n > sizeof ones)
            n = sizeof ones;
        if (pwrite(flash.fd, ones, n, st.st_size) != (ssize_t)n) {
            fprintf(stderr, "hsx-exec-host: %s: %s\n", o->persist, strerror(errno));
            return -1;
        }
        st.st_size += n;
    }
    srand((unsigned)getpid() ^ (unsigned)time(0));
    persist.ctx = &flash;
    persist.size = o->flash_size;
    persist.page_size = o->flash_page;
    persist.read = flash_read;
    persist.write = flash_write;
    persist.erase = flash_erase;
    return 0;
}

/* ---- a directory as the file system ------------------------------------------------------- */

#define MAX_OPEN 64

static char root[PATH_MAX];

static struct host_file {
    int used, readable, writable, append;
    off_t position;
    char path[PATH_MAX];
} open_files[MAX_OPEN];

/* The host path of a guest path: '/' is the root, nothing may lead outside it
 * (lexically or through a symbolic link). 0, or -HSX_EINVAL. */
static int resolve(const char *guest, char *out)
{
    char parts[PATH_MAX], probe[PATH_MAX], real[PATH_MAX];
    size_t n = strlen(root), k;
    const char *p = guest;
    if (strchr(guest, ':'))
        return -HSX_EINVAL;
    while (*p == ' ')
        p++;
    strcpy(out, root);
    for (;;) {
        const char *start;
        while (*p == '/' || *p == '\\')
            p++;
        if (!*p)
            break;
        start = p;
        while (*p && *p != '/' && *p != '\\')
            p++;
        k = (size_t)(p - start);
        if (k >= sizeof parts)
            return -HSX_EINVAL;
        memcpy(parts, start, k);
        parts[k] = 0;
        while (k && parts[k - 1] == ' ' && !*p)     /* the whole path is stripped */
            parts[--k] = 0;
        if (!strcmp(parts, ".") || !k)
            continue;
        if (!strcmp(parts, "..")) {
            char *slash = strrchr(out, '/');
            if (strlen(out) <= n || !slash)
                return -HSX_EINVAL;                 /* above the root */
            *slash = 0;
            if (strlen(out) < n)
                return -HSX_EINVAL;
            continue;
        }
        if (strlen(out) + 1 + k >= PATH_MAX)
            return -HSX_ENAMETOOLONG;
        strcat(out, "/");
        strcat(out, parts);
    }
    if (!strcmp(out, root))
        return -HSX_EINVAL;                         /* the root itself: an empty path */
    /* a symbolic link must not lead out: check the deepest part that exists */
    strcpy(probe, out);
    while (strlen(probe) > n) {
        if (realpath(probe, real)) {
            if (strncmp(real, root, n) || (real[n] && real[n] != '/'))
                return -HSX_EINVAL;
            break;
        }
        *strrchr(probe, '/') = 0;
    }
    return 0;
}

static int fs_open(void *ctx, const char *guest, uint32_t flags)
{
    char path[PATH_MAX];
    struct stat st;
    hsx_open_mode asked = hsx_open_mode_of(flags);
    int i, r = resolve(guest, path);
    (void)ctx;
    if (r)
        return r;
    for (i = 0; i < MAX_OPEN && open_files[i].used; i++)
        ;
    if (i == MAX_OPEN)
        return -HSX_EMFILE;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
        return -HSX_EISDIR;
    if (stat(path, &st) != 0) {
        int fd;
        if (!asked.create)
            return -HSX_ENOENT;
        fd = open(path, O_WRONLY | O_CREAT, 0644);
        if (fd < 0)
            return guest_errno(errno);
        close(fd);
    }
    if (asked.truncate && truncate(path, 0) != 0)
        return guest_errno(errno);
    open_files[i].used = 1;
    open_files[i].readable = asked.readable;
    open_files[i].writable = asked.writable;
    open_files[i].append = asked.append;
    open_files[i].position = 0;
    strcpy(open_files[i].path, path);
    return i;
}

static struct host_file *file_of(int file)
{
    return file >= 0 && file < MAX_OPEN && open_files[file].used ? &open_files[file] : 0;
}

static int fs_read(void *ctx, int file, uint8_t *out, uint32_t len)
{
    struct host_file *f = file_of(file);
    ssize_t n;
    int fd;
    (void)ctx;
    if (!f || !f->readable)
        return -HSX_EBADF;
    fd = open(f->path, O_RDONLY);
    if (fd < 0)
        return guest_errno(errno);
    n = pread(fd, out, len, f->position);
    close(fd);
    if (n < 0)
        return guest_errno(errno);
    f->position += n;
    return (int)n;
}

static int fs_write(void *ctx, int file, const uint8_t *data, uint32_t len)
{
    struct host_file *f = file_of(file);
    ssize_t n;
    int fd;
    (void)ctx;
    if (!f || !f->writable)
        return -HSX_EBADF;
    fd = open(f->path, O_WRONLY);
    if (fd < 0)
        return guest_errno(errno);
    if (f->append)
        f->position = lseek(fd, 0, SEEK_END);
    n = pwrite(fd, data, len, f->position);
    close(fd);
    if (n < 0)
        return guest_errno(errno);
    f->position += n;
    return (int)n;
}

static int fs_seek(void *ctx, int file, int32_t offset, uint32_t whence)
{
    struct host_file *f = file_of(file);
    struct stat st;
    off_t base;
    (void)ctx;
    if (!f)
        return -HSX_EBADF;
    if (whence == 0) {
        base = 0;
    } else if (whence == 1) {
        base = f->position;
    } else if (whence == 2) {
        if (stat(f->path, &st) != 0)
            return guest_errno(errno);
        base = st.st_size;
    } else {
        return -HSX_EINVAL;
    }
    if (base + offset < 0)
        return -HSX_EINVAL;
    f->position = base + offset;
    return (int)f->position;
}

static int fs_close(void *ctx, int file)
{
    struct host_file *f = file_of(file);
    (void)ctx;
    if (!f)
        return -HSX_EBADF;
    f->used = 0;
    return 0;
}

static int compare(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int fs_listdir(void *ctx, const char *guest, char *out, uint32_t size)
{
    char path[PATH_MAX], entry[PATH_MAX + 2];
    char *names[1024];
    const char *g = guest;
    struct dirent *d;
    struct stat st;
    DIR *dir;
    uint32_t count = 0, used = 0, i;
    (void)ctx;
    while (*g == ' ')
        g++;
    if (!*g || !strcmp(g, "/") || !strcmp(g, ".")) {
        strcpy(path, root);
    } else {
        int r = resolve(guest, path);
        if (r)
            return r;
    }
    if (stat(path, &st) != 0)
        return -HSX_ENOENT;
    if (!S_ISDIR(st.st_mode))
        return -HSX_ENOTDIR;
    dir = opendir(path);
    if (!dir)
        return guest_errno(errno);
    while ((d = readdir(dir)) != 0 && count < 1024) {
        if (!strcmp(d->d_name, ".") || !strcmp(d->d_name, ".."))
            continue;
        snprintf(entry, sizeof entry, "%s/%s", path, d->d_name);
        snprintf(entry, sizeof entry, "%s%s", d->d_name,
                 stat(entry, &st) == 0 && S_ISDIR(st.st_mode) ? "/" : "");
        names[count++] = strdup(entry);
    }
    closedir(dir);
    qsort(names, count, sizeof *names, compare);
    for (i = 0; i < count; i++) {
        const char *s = names[i];
        if (i && used < size)
            out[used++] = '\n';
        while (*s && used < size)
            out[used++] = *s++;
        free(names[i]);
    }
    return (int)used;
}

static int path_op(const char *guest, int must_exist, char *path)
{
    struct stat st;
    int r = resolve(guest, path);
    if (r)
        return r;
    if (must_exist && lstat(path, &st) != 0)
        return -HSX_ENOENT;
    if (!must_exist && lstat(path, &st) == 0)
        return -HSX_EEXIST;
    return 0;
}

static int fs_remove(void *ctx, const char *guest)
{
    char path[PATH_MAX];
    struct stat st;
    int r = path_op(guest, 1, path);
    (void)ctx;
    if (r)
        return r;
    r = stat(path, &st) == 0 && S_ISDIR(st.st_mode) ? rmdir(path) : unlink(path);
    return r ? guest_errno(errno) : 0;
}

static int fs_mkdir(void *ctx, const char *guest)
{
    char path[PATH_MAX];
    int r = path_op(guest, 0, path);
    (void)ctx;
    if (r)
        return r;
    return mkdir(path, 0755) ? guest_errno(errno) : 0;
}

static int fs_rename(void *ctx, const char *from, const char *to)
{
    char a[PATH_MAX], b[PATH_MAX];
    struct stat st;
    int r;
    (void)ctx;
    if ((r = resolve(from, a)) != 0 || (r = resolve(to, b)) != 0)
        return r;
    if (stat(a, &st) != 0)
        return -HSX_ENOENT;
    if (stat(b, &st) == 0)
        return -HSX_EEXIST;
    return rename(a, b) ? guest_errno(errno) : 0;
}

static const hsx_fs host_fs = {
    0, fs_open, fs_read, fs_write, fs_seek, fs_close, fs_listdir, fs_remove, fs_rename, fs_mkdir
};

#ifdef HSX_FAT
/* A FAT image file as the block device (the SPI SD card's place on a board). */
static int image_fd = -1;
static hsx_fs fat_fs;

static int image_read(void *ctx, uint32_t lba, uint8_t *out, uint32_t count)
{
    ssize_t n = pread(image_fd, out, (size_t)count * 512, (off_t)lba * 512);
    (void)ctx;
    return n == (ssize_t)count * 512 ? 0 : -HSX_EIO;
}

static int image_write(void *ctx, uint32_t lba, const uint8_t *data, uint32_t count)
{
    ssize_t n = pwrite(image_fd, data, (size_t)count * 512, (off_t)lba * 512);
    (void)ctx;
    return n == (ssize_t)count * 512 ? 0 : -HSX_EIO;
}

static int image_sync(void *ctx)
{
    (void)ctx;
    return fdatasync(image_fd) ? -HSX_EIO : 0;
}

static hsx_block_device image = { 0, 512, 0, image_read, image_write, image_sync };

static int fat_open_image(const char *path, const hsx_fs **fs)
{
    struct stat st;
    image_fd = open(path, O_RDWR);
    if (image_fd < 0 || fstat(image_fd, &st) != 0) {
        fprintf(stderr, "hsx-exec-host: %s: %s\n", path, strerror(errno));
        return -1;
    }
    image.block_count = (uint32_t)(st.st_size / 512);
    if (hsx_fat_mount(&image, &fat_fs) != 0) {
        fprintf(stderr, "hsx-exec-host: %s: no FAT file system on it (make one with "
                        "hsx fs mkfs)\n", path);
        return -1;
    }
    *fs = &fat_fs;
    return 0;
}
#else
static int fat_open_image(const char *path, const hsx_fs **fs)
{
    (void)fs;
    fprintf(stderr, "hsx-exec-host: %s: this build has no FAT file system (hsx board run "
                    "--fs fat:IMAGE builds one that has)\n", path);
    return -1;
}
#endif

int host_hal_init(hsx_hal *hal, const host_options *o)
{
    memset(hal, 0, sizeof *hal);
    hal->now_ms = now_ms;
    hal->diagnostic = diagnostic;
    hal->board = "host";
    if (o->root) {
        if (mkdir(o->root, 0755) != 0 && errno != EEXIST) {
            fprintf(stderr, "hsx-exec-host: %s: %s\n", o->root, strerror(errno));
            return -1;
        }
        if (!realpath(o->root, root)) {
            fprintf(stderr, "hsx-exec-host: %s: %s\n", o->root, strerror(errno));
            return -1;
        }
        hal->fs = &host_fs;
    }
    if (o->fat && fat_open_image(o->fat, &hal->fs) != 0)
        return -1;
    if (o->persist) {
        if (flash_open(o) != 0)
            return -1;
        hal->persist = &persist;
    }
    if (o->can && host_can_open(o->can, &hal->can) != 0)
        return -1;
    if (o->can_fs) {
        static hsx_canfs_config files_over_can;
        static hsx_fs can_fs;
        if (!hal->can) {
            fprintf(stderr, "hsx-exec-host: --can-fs needs --can tcp:HOST:PORT\n");
            return -1;
        }
        files_over_can.can = hal->can;
        files_over_can.now_ms = now_ms;
        files_over_can.server_id = 0x7E0;
        files_over_can.client_id = 0x7E8;
        files_over_can.timeout_ms = 1000;
        hsx_canfs_init(&files_over_can, &can_fs);
        hal->fs = &can_fs;
    }
    return 0;
}
