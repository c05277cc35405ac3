/* HSX C executive: the FAT file system as an hsx_fs (hsx_fat.h), over FatFs.
 *
 * The guest's paths are absolute within the volume ('/' is its root); the open flags,
 * LISTDIR's sorted names and the errors are those of docs/syscalls.md, as the Python
 * executive's FAT backend gives them. Every write is synced to the device before the
 * SVC returns, so a task killed (or a board reset) between two writes leaves a volume
 * that mounts and holds what those writes wrote. FatFs reaches the device through the
 * disk_* functions below (its diskio.h); there is one volume, drive 0. */
#include "hsx_fat.h"

#include "ff.h"           /* first: diskio.h uses its types */
#include "diskio.h"

#define MAX_FILES 8
#define LIST_NAMES 128              /* entries LISTDIR sorts (more are listed unsorted) */
#define LIST_BYTES 4096

static const hsx_block_device *device;
static FATFS volume;
static struct open_file {
    FIL fil;
    uint8_t used, readable, writable, append;
} files[MAX_FILES];

/* ---- the block device under FatFs (diskio.h) ---------------------------------------------- */

DSTATUS disk_status(BYTE drive) { return drive == 0 && device ? 0 : STA_NOINIT; }

DSTATUS disk_initialize(BYTE drive) { return disk_status(drive); }

DRESULT disk_read(BYTE drive, BYTE *out, LBA_t lba, UINT count)
{
    if (drive != 0 || !device)
        return RES_NOTRDY;
    return device->read(device->ctx, (uint32_t)lba, out, count) < 0 ? RES_ERROR : RES_OK;
}

DRESULT disk_write(BYTE drive, const BYTE *data, LBA_t lba, UINT count)
{
    if (drive != 0 || !device)
        return RES_NOTRDY;
    return device->write(device->ctx, (uint32_t)lba, data, count) < 0 ? RES_ERROR : RES_OK;
}

DRESULT disk_ioctl(BYTE drive, BYTE command, void *out)
{
    if (drive != 0 || !device)
        return RES_NOTRDY;
    switch (command) {
    case CTRL_SYNC:
        return device->sync && device->sync(device->ctx) < 0 ? RES_ERROR : RES_OK;
    case GET_SECTOR_COUNT:
        *(LBA_t *)out = device->block_count;
        return RES_OK;
    case GET_SECTOR_SIZE:
        *(WORD *)out = (WORD)device->block_size;
        return RES_OK;
    case GET_BLOCK_SIZE:
        *(DWORD *)out = 1;
        return RES_OK;
    default:
        return RES_PARERR;
    }
}

/* ---- errors and paths ----------------------------------------------------------------------- */

static int error_of(FRESULT r)
{
    switch (r) {
    case FR_OK: return 0;
    case FR_NO_FILE: case FR_NO_PATH: return -HSX_ENOENT;
    case FR_EXIST: return -HSX_EEXIST;
    case FR_DENIED: return -HSX_ENOSPC;      /* a full volume (or directory) */
    case FR_WRITE_PROTECTED: return -HSX_EACCES;
    case FR_INVALID_NAME: case FR_INVALID_PARAMETER: return -HSX_EINVAL;
    case FR_INVALID_OBJECT: return -HSX_EBADF;
    case FR_TOO_MANY_OPEN_FILES: return -HSX_EMFILE;
    default: return -HSX_EIO;
    }
}

/* The guest's path as FatFs takes it: '/'-separated from the root, without "." or ".."
 * (nothing may lead above the root) and not the root itself; -HSX_EINVAL otherwise. */
static int checked(const char *path)
{
    const char *p = path;
    while (*p == '/')
        p++;
    if (!*p)
        return -HSX_EINVAL;
    while (*p) {
        const char *end = p;
        while (*end && *end != '/')
            end++;
        if ((end - p == 1 && p[0] == '.') || (end - p == 2 && p[0] == '.' && p[1] == '.'))
            return -HSX_EINVAL;
        p = *end ? end + 1 : end;
    }
    return 0;
}

static struct open_file *file_of(int id)
{
    return id >= 0 && id < MAX_FILES && files[id].used ? &files[id] : 0;
}

/* ---- the file SVCs ---------------------------------------------------------------------------- */

static int fat_open(void *ctx, const char *path, uint32_t flags)
{
    FILINFO info;
    hsx_open_mode asked = hsx_open_mode_of(flags);
    int id, r;
    BYTE mode;
    (void)ctx;
    if ((r = checked(path)) != 0)
        return r;
    for (id = 0; id < MAX_FILES && files[id].used; id++)
        ;
    if (id == MAX_FILES)
        return -HSX_EMFILE;
    if (f_stat(path, &info) == FR_OK && (info.fattrib & AM_DIR))
        return -HSX_EISDIR;
    mode = (BYTE)((asked.readable ? FA_READ : 0) | (asked.writable ? FA_WRITE : 0)
                  | (asked.create ? FA_OPEN_ALWAYS : FA_OPEN_EXISTING));
    if (asked.create && !asked.writable)
        mode |= FA_WRITE;                           /* creating needs write access */
    if ((r = error_of(f_open(&files[id].fil, path, mode))) != 0)
        return r;
    if (asked.truncate) {
        if ((r = error_of(f_truncate(&files[id].fil))) != 0 ||
            (r = error_of(f_sync(&files[id].fil))) != 0) {
            f_close(&files[id].fil);
            return r;
        }
    }
    files[id].used = 1;
    files[id].readable = asked.readable;
    files[id].writable = asked.writable;
    files[id].append = asked.append;
    return id;
}

static int fat_read(void *ctx, int id, uint8_t *out, uint32_t len)
{
    struct open_file *f = file_of(id);
    UINT got = 0;
    int r;
    (void)ctx;
    if (!f || !f->readable)
        return -HSX_EBADF;
    if ((r = error_of(f_read(&f->fil, out, len, &got))) != 0)
        return r;
    return (int)got;
}

static int fat_write(void *ctx, int id, const uint8_t *data, uint32_t len)
{
    struct open_file *f = file_of(id);
    UINT put = 0;
    int r;
    (void)ctx;
    if (!f || !f->writable)
        return -HSX_EBADF;
    if (f->append && (r = error_of(f_lseek(&f->fil, f_size(&f->fil)))) != 0)
        return r;
    if ((r = error_of(f_write(&f->fil, data, len, &put))) != 0)
        return r;
    if ((r = error_of(f_sync(&f->fil))) != 0)       /* on the device before the SVC returns */
        return r;
    return put < len && put == 0 ? -HSX_ENOSPC : (int)put;
}

static int fat_seek(void *ctx, int id, int32_t offset, uint32_t whence)
{
    struct open_file *f = file_of(id);
    int64_t base;
    int r;
    (void)ctx;
    if (!f)
        return -HSX_EBADF;
    if (whence == 0)
        base = 0;
    else if (whence == 1)
        base = (int64_t)f_tell(&f->fil);
    else if (whence == 2)
        base = (int64_t)f_size(&f->fil);
    else
        return -HSX_EINVAL;
    if (base + offset < 0 || base + offset > 0x7FFFFFFF)
        return -HSX_EINVAL;
    if ((r = error_of(f_lseek(&f->fil, (FSIZE_t)(base + offset)))) != 0)
        return r;
    return (int)f_tell(&f->fil);
}

static int fat_close(void *ctx, int id)
{
    struct open_file *f = file_of(id);
    (void)ctx;
    if (!f)
        return -HSX_EBADF;
    f->used = 0;
    return error_of(f_close(&f->fil));
}

static char list_names[LIST_BYTES];

static int name_before(const char *a, const char *b)
{
    while (*a && *a == *b)
        a++, b++;
    return (unsigned char)*a < (unsigned char)*b;
}

static int fat_listdir(void *ctx, const char *path, char *out, uint32_t size)
{
    const char *names[LIST_NAMES];
    const char *p = path;
    uint32_t count = 0, held = 0, used = 0, i, j;
    FILINFO info;
    DIR dir;
    FRESULT r;
    (void)ctx;
    while (*p == ' ')
        p++;
    if (!*p || (p[0] == '.' && !p[1]))
        p = "/";
    for (i = 0; p[i] == '/'; i++)
        ;
    if (p[i] && checked(p) != 0)                    /* anything but the root: checked */
        return -HSX_EINVAL;
    if ((r = f_opendir(&dir, p)) != FR_OK)
        return r == FR_NO_PATH || r == FR_NO_FILE ? (f_stat(p, &info) == FR_OK
                                                     ? -HSX_ENOTDIR : -HSX_ENOENT)
                                                  : error_of(r);
    while (f_readdir(&dir, &info) == FR_OK && info.fname[0]) {
        uint32_t n = 0;
        while (info.fname[n])
            n++;
        if (count == LIST_NAMES || held + n + 2 > LIST_BYTES)
            break;
        names[count++] = list_names + held;
        for (j = 0; j < n; j++)
            list_names[held++] = info.fname[j];
        if (info.fattrib & AM_DIR)
            list_names[held++] = '/';
        list_names[held++] = 0;
    }
    f_closedir(&dir);
    for (i = 1; i < count; i++)                     /* insertion sort: a few dozen names */
        for (j = i; j > 0 && name_before(names[j], names[j - 1]); j--) {
            const char *t = names[j];
            names[j] = names[j - 1];
            names[j - 1] = t;
        }
    for (i = 0; i < count; i++) {
        const char *s = names[i];
        if (i && used < size)
            out[used++] = '\n';
        while (*s && used < size)
            out[used++] = *s++;
    }
    return (int)used;
}

static int fat_remove(void *ctx, const char *path)
{
    int r = checked(path);
    (void)ctx;
    if (r)
        return r;
    r = error_of(f_unlink(path));
    return r == -HSX_ENOSPC ? -HSX_EINVAL : r;      /* DENIED here: a directory not empty */
}

static int fat_rename(void *ctx, const char *from, const char *to)
{
    FILINFO info;
    int r;
    (void)ctx;
    if ((r = checked(from)) != 0 || (r = checked(to)) != 0)
        return r;
    if (f_stat(from, &info) != FR_OK)
        return -HSX_ENOENT;
    if (f_stat(to, &info) == FR_OK)
        return -HSX_EEXIST;
    return error_of(f_rename(from, to));
}

static int fat_mkdir(void *ctx, const char *path)
{
    int r = checked(path);
    (void)ctx;
    if (r)
        return r;
    return error_of(f_mkdir(path));
}

int hsx_fat_mount(const hsx_block_device *dev, hsx_fs *out)
{
    static const hsx_fs fat = {0, fat_open, fat_read, fat_write, fat_seek, fat_close,
                               fat_listdir, fat_remove, fat_rename, fat_mkdir};
    if (dev->block_size != 512)
        return -HSX_EINVAL;
    device = dev;
    if (f_mount(&volume, "", 1) != FR_OK) {
        device = 0;
        return -HSX_EIO;
    }
    *out = fat;
    return 0;
}

void hsx_fat_unmount(void)
{
    int i;
    for (i = 0; i < MAX_FILES; i++)
        if (files[i].used) {
            f_close(&files[i].fil);
            files[i].used = 0;
        }
    f_unmount("");
    device = 0;
}
