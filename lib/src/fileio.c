/* Reading, writing and positioning streams. */
#include <string.h>
#include "stdio_impl.h"

/* Write buf[0..pos) out. */
static int drain(FILE *f) {
    unsigned done = 0;
    while (done < f->pos) {
        int n = hsx_fs_write(f->fd, f->buf + done, f->pos - done);
        if (n <= 0) {
            f->flags |= FL_ERR;
            errno = n < 0 ? -n : EIO;
            f->pos = 0;
            return EOF;
        }
        done += (unsigned)n;
    }
    f->pos = 0;
    return 0;
}

/* Forget the read-ahead, moving the descriptor back to the stream's position. */
static void drop_read_ahead(FILE *f) {
    int back = (int)(f->end - f->pos) + (f->unget != EOF);
    if (back && f->fd > 2)
        hsx_fs_seek(f->fd, -back, HSX_SEEK_CUR);
    f->pos = f->end = 0;
    f->unget = EOF;
}

int fflush(FILE *f) {
    if (!f) {
        int status = fflush(stdout) | fflush(stderr);
        for (FILE *g = __hsx_open_files; g; g = g->next)
            status |= fflush(g);
        return status;
    }
    int status = 0;
    if (f->state == ST_WRITING)
        status = drain(f);
    else if (f->state == ST_READING)
        drop_read_ahead(f);
    f->state = ST_IDLE;
    return status;
}

int __hsx_begin_write(FILE *f) {
    if (!(f->flags & FL_WRITE)) {
        f->flags |= FL_ERR;
        errno = EBADF;
        return EOF;
    }
    if (f->state == ST_READING)
        drop_read_ahead(f);
    if (f->state != ST_WRITING) {
        f->state = ST_WRITING;
        f->pos = 0;
        if (!__hsx_stdio_flush_hook)
            __hsx_stdio_flush_hook = __hsx_stdio_flush;
    }
    return 0;
}

int fputc(int c, FILE *f) {
    if (f->state != ST_WRITING && __hsx_begin_write(f) == EOF)
        return EOF;
    if (f->pos == f->size && drain(f) == EOF)
        return EOF;
    f->buf[f->pos++] = (unsigned char)c;
    if (f->mode == _IONBF || (f->mode == _IOLBF && c == '\n'))
        if (drain(f) == EOF)
            return EOF;
    return (unsigned char)c;
}

int putc(int c, FILE *f) { return fputc(c, f); }
int putchar(int c) { return fputc(c, stdout); }

size_t fwrite(const void *data, size_t size, size_t count, FILE *f) {
    size_t total = size * count;
    if (total == 0)
        return 0;
    if (f->state != ST_WRITING && __hsx_begin_write(f) == EOF)
        return 0;
    const unsigned char *p = data;
    size_t done = 0;
    while (done < total) {
        if (f->pos == f->size && drain(f) == EOF)
            break;
        if (f->pos == 0 && total - done >= f->size) {      /* big: straight through */
            int n = hsx_fs_write(f->fd, p + done, (unsigned)(total - done > 0xFFFF ? 0xFFFF
                                                                : total - done));
            if (n <= 0) {
                f->flags |= FL_ERR;
                break;
            }
            done += (size_t)n;
            continue;
        }
        size_t room = f->size - f->pos;
        size_t n = total - done < room ? total - done : room;
        memcpy(f->buf + f->pos, p + done, n);
        f->pos += (unsigned)n;
        done += n;
    }
    if (f->mode == _IONBF || (f->mode == _IOLBF && memchr(data, '\n', done)))
        drain(f);
    return done / size;
}

/* Success is 1 (any non-negative number would do; glibc's is 1). */
int fputs(const char *s, FILE *f) {
    size_t n = strlen(s);
    return fwrite(s, 1, n, f) == n ? 1 : EOF;
}

/* Success is the count of characters written, newline included, as glibc's. */
int puts(const char *s) {
    size_t n = strlen(s);
    if (fwrite(s, 1, n, stdout) != n || fputc('\n', stdout) == EOF)
        return EOF;
    return n < 0x7FFFFFFF ? (int)n + 1 : 0x7FFFFFFF;
}

int __hsx_refill(FILE *f) {
    if (!(f->flags & FL_READ)) {
        f->flags |= FL_ERR;
        errno = EBADF;
        return EOF;
    }
    if (f->state == ST_WRITING && drain(f) == EOF)
        return EOF;
    if (f->fd == 0)
        fflush(stdout);                 /* show the prompt before waiting for input */
    f->state = ST_READING;
    f->pos = f->end = 0;
    int n = hsx_fs_read(f->fd, f->buf, f->size);
    if (n <= 0) {
        f->flags |= n < 0 ? FL_ERR : FL_EOF;
        if (n < 0)
            errno = -n;
        return EOF;
    }
    f->end = (unsigned)n;
    return f->buf[0];
}

int fgetc(FILE *f) {
    if (f->unget != EOF) {
        int c = f->unget;
        f->unget = EOF;
        return c;
    }
    if (f->state == ST_READING && f->pos < f->end)
        return f->buf[f->pos++];
    if (__hsx_refill(f) == EOF)
        return EOF;
    return f->buf[f->pos++];
}

int getc(FILE *f) { return fgetc(f); }
int getchar(void) { return fgetc(stdin); }

int ungetc(int c, FILE *f) {
    if (c == EOF)
        return EOF;
    if (f->state == ST_WRITING && drain(f) == EOF)
        return EOF;
    if (f->state == ST_READING && f->unget == EOF && f->pos > 0 &&
        f->buf[f->pos - 1] == (unsigned char)c)
        f->pos--;
    else if (f->unget == EOF)
        f->unget = (unsigned char)c;
    else
        return EOF;
    if (f->state != ST_READING) {
        f->state = ST_READING;
        f->pos = f->end = 0;
    }
    f->flags &= ~FL_EOF;
    return (unsigned char)c;
}

char *fgets(char *buf, int size, FILE *f) {
    if (size == 1) {                     /* room for the terminator only: glibc's answer */
        buf[0] = 0;
        return buf;
    }
    int n = 0;
    while (n + 1 < size) {
        int c = fgetc(f);
        if (c == EOF)
            break;
        buf[n++] = (char)c;
        if (c == '\n')
            break;
    }
    if (n == 0 || (f->flags & FL_ERR))
        return NULL;
    buf[n] = 0;
    return buf;
}

size_t fread(void *data, size_t size, size_t count, FILE *f) {
    size_t total = size * count;
    unsigned char *p = data;
    size_t done = 0;
    if (total && f->unget != EOF) {
        p[done++] = (unsigned char)f->unget;
        f->unget = EOF;
    }
    while (done < total) {
        if (f->state == ST_READING && f->pos < f->end) {
            size_t n = f->end - f->pos;
            if (n > total - done)
                n = total - done;
            memcpy(p + done, f->buf + f->pos, n);
            f->pos += (unsigned)n;
            done += n;
        } else if (__hsx_refill(f) == EOF) {
            break;
        }
    }
    return size ? done / size : 0;
}

int fseek(FILE *f, long offset, int whence) {
    if (f->state == ST_WRITING && drain(f) == EOF)
        return -1;
    if (f->state == ST_READING && whence == SEEK_CUR)
        offset -= (long)(f->end - f->pos) + (f->unget != EOF);
    f->state = ST_IDLE;
    f->pos = f->end = 0;
    f->unget = EOF;
    int r = hsx_fs_seek(f->fd, (int)offset, whence);
    if (r < 0) {
        errno = -r;
        return -1;
    }
    f->flags &= ~FL_EOF;
    return 0;
}

long ftell(FILE *f) {
    if (f->state == ST_WRITING && (f->flags & FL_APPEND) && drain(f) == EOF)
        return -1;
    int r = hsx_fs_seek(f->fd, 0, HSX_SEEK_CUR);
    if (r < 0) {
        errno = -r;
        return -1;
    }
    if (f->state == ST_READING)
        return r - (long)(f->end - f->pos) - (f->unget != EOF);
    if (f->state == ST_WRITING)
        return r + (long)f->pos;
    return r;
}

void rewind(FILE *f) {
    fseek(f, 0, SEEK_SET);
    f->flags &= ~FL_ERR;
}

int fgetpos(FILE *f, fpos_t *pos) {
    long p = ftell(f);
    if (p < 0)
        return -1;
    *pos = p;
    return 0;
}

int fsetpos(FILE *f, const fpos_t *pos) { return fseek(f, *pos, SEEK_SET); }

int feof(FILE *f) { return (f->flags & FL_EOF) != 0; }
int ferror(FILE *f) { return (f->flags & FL_ERR) != 0; }
void clearerr(FILE *f) { f->flags &= ~(FL_EOF | FL_ERR); }

void perror(const char *s) {
    int e = errno;
    if (s && *s) {
        fputs(s, stderr);
        fputs(": ", stderr);
    }
    fputs(strerror(e), stderr);
    fputc('\n', stderr);
}
