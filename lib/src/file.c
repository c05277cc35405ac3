/* Opening and closing streams: stdin/stdout/stderr, fopen, freopen, fclose, tmpfile,
 * setvbuf, remove and rename. */
#include <stdlib.h>
#include <string.h>
#include "stdio_impl.h"

static unsigned char stdin_buf[BUFSIZ], stdout_buf[BUFSIZ], stderr_buf[64];
static struct __hsx_file stdin_file = { 0, FL_READ, _IOFBF, ST_IDLE, EOF, stdin_buf, BUFSIZ };
static struct __hsx_file stdout_file = { 1, FL_WRITE, _IOLBF, ST_IDLE, EOF, stdout_buf, BUFSIZ };
static struct __hsx_file stderr_file = { 2, FL_WRITE, _IONBF, ST_IDLE, EOF, stderr_buf,
                                         sizeof stderr_buf };
FILE *const stdin = &stdin_file;
FILE *const stdout = &stdout_file;
FILE *const stderr = &stderr_file;

FILE *__hsx_open_files;

/* At exit (through __hsx_stdio_flush_hook) once a stream has been written. */
void __hsx_stdio_flush(void) {
    fflush(stdout);
    fflush(stderr);
}

/* At exit once a file has been opened: close every file (temporary ones are removed). */
static void close_all(void) {
    while (__hsx_open_files)
        fclose(__hsx_open_files);
    __hsx_stdio_flush();
}

int __hsx_open_flags(const char *mode, int *exclusive) {
    int flags;
    switch (*mode) {
    case 'r': flags = HSX_O_RDONLY; break;
    case 'w': flags = HSX_O_WRONLY | HSX_O_CREAT | HSX_O_TRUNC; break;
    case 'a': flags = HSX_O_WRONLY | HSX_O_CREAT | HSX_O_APPEND; break;
    default: return -1;
    }
    *exclusive = 0;
    for (const char *m = mode + 1; *m; m++) {
        if (*m == '+')
            flags |= HSX_O_RDWR;
        else if (*m == 'x' && *mode == 'w')
            *exclusive = 1;
        else if (*m != 'b' && *m != 't')
            return -1;
    }
    return flags;
}

/* Open `path` into `f` (whose buffer is set up): 0, or -1 with errno set. */
static int open_into(FILE *f, const char *path, const char *mode) {
    int exclusive;
    int flags = __hsx_open_flags(mode, &exclusive);
    if (flags < 0) {
        errno = EINVAL;
        return -1;
    }
    if (exclusive) {
        int probe = hsx_fs_open(path, HSX_O_RDONLY);
        if (probe >= 0) {
            hsx_fs_close(probe);
            errno = EEXIST;
            return -1;
        }
    }
    int fd = hsx_fs_open(path, (unsigned)flags);
    if (fd < 0) {
        errno = -fd;
        return -1;
    }
    f->fd = fd;
    f->flags = (unsigned char)(((flags & HSX_O_RDONLY) ? FL_READ : 0) |
                               ((flags & HSX_O_WRONLY) ? FL_WRITE : 0) |
                               ((flags & HSX_O_APPEND) ? FL_APPEND : 0) |
                               (f->flags & FL_ALLOC));
    f->state = ST_IDLE;
    f->unget = EOF;
    f->pos = f->end = 0;
    return 0;
}

FILE *fopen(const char *path, const char *mode) {
    FILE *f = malloc(sizeof(FILE) + BUFSIZ);
    if (!f) {
        errno = ENOMEM;
        return NULL;
    }
    memset(f, 0, sizeof *f);
    f->flags = FL_ALLOC;
    f->mode = _IOFBF;
    f->buf = (unsigned char *)(f + 1);
    f->size = BUFSIZ;
    if (open_into(f, path, mode) < 0) {
        free(f);
        return NULL;
    }
    f->next = __hsx_open_files;
    __hsx_open_files = f;
    __hsx_stdio_flush_hook = close_all;
    return f;
}

FILE *freopen(const char *path, const char *mode, FILE *f) {
    fflush(f);
    if (!path)
        return f;
    if (f->fd > 2)
        hsx_fs_close(f->fd);
    f->fd = -1;
    return open_into(f, path, mode) < 0 ? NULL : f;
}

int fclose(FILE *f) {
    int status = fflush(f);
    if (f->fd > 2 && hsx_fs_close(f->fd) < 0)
        status = EOF;
    f->fd = -1;
    f->flags &= FL_ALLOC;
    if (f->tmpname) {
        hsx_fs_delete(f->tmpname);
        free(f->tmpname);
        f->tmpname = NULL;
    }
    if (f->flags & FL_ALLOC) {
        for (FILE **p = &__hsx_open_files; *p; p = &(*p)->next) {
            if (*p == f) {
                *p = f->next;
                break;
            }
        }
        free(f);
    }
    return status;
}

int setvbuf(FILE *f, char *buf, int mode, size_t size) {
    if (mode != _IOFBF && mode != _IOLBF && mode != _IONBF)
        return -1;
    fflush(f);
    f->mode = (unsigned char)mode;
    if (buf && size > 0) {
        f->buf = (unsigned char *)buf;
        f->size = (unsigned)size;
    }
    return 0;
}

void setbuf(FILE *f, char *buf) { setvbuf(f, buf, buf ? _IOFBF : _IONBF, BUFSIZ); }

int fileno(FILE *f) { return f->fd; }

static unsigned tmp_counter;

char *tmpnam(char *s) {
    static char name[L_tmpnam];
    char *out = s ? s : name;
    for (;;) {
        unsigned n = ++tmp_counter;
        char digits[12];
        int k = 0;
        do {
            digits[k++] = (char)('0' + n % 10);
            n /= 10;
        } while (n);
        char *p = out;
        for (const char *pre = "/tmp"; *pre; )
            *p++ = *pre++;
        while (k)
            *p++ = digits[--k];
        *p = 0;
        int fd = hsx_fs_open(out, HSX_O_RDONLY);
        if (fd < 0)
            return out;
        hsx_fs_close(fd);
    }
}

FILE *tmpfile(void) {
    char name[L_tmpnam];
    tmpnam(name);
    FILE *f = fopen(name, "w+");
    if (f) {
        f->tmpname = malloc(strlen(name) + 1);
        if (f->tmpname)
            strcpy(f->tmpname, name);
    }
    return f;
}

int remove(const char *path) {
    int r = hsx_fs_delete(path);
    if (r < 0) {
        errno = -r;
        return -1;
    }
    return 0;
}

/* As POSIX rename: an existing `new_path` is replaced. */
int rename(const char *old_path, const char *new_path) {
    int r = hsx_fs_rename(old_path, new_path);
    if (r == -EEXIST && hsx_fs_delete(new_path) == 0)
        r = hsx_fs_rename(old_path, new_path);
    if (r < 0) {
        errno = -r;
        return -1;
    }
    return 0;
}
