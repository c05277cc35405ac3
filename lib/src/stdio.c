/* stdio.h streams: stdout and stderr are line-buffered, stdin reads through FS_READ. */
#include <stdio.h>
#include <string.h>
#include <hsx_sys.h>

struct __hsx_file {
    int fd;
    unsigned len;
    char buf[BUFSIZ];
};

static struct __hsx_file files[3] = { { 0, 0, {0} }, { 1, 0, {0} }, { 2, 0, {0} } };
FILE *const stdin = &files[0];
FILE *const stdout = &files[1];
FILE *const stderr = &files[2];

int fflush(FILE *f) {
    if (!f) {
        fflush(stdout);
        return fflush(stderr);
    }
    unsigned done = 0;
    while (done < f->len) {
        int n = hsx_write(f->fd, f->buf + done, f->len - done);
        if (n <= 0)
            break;
        done += (unsigned)n;
    }
    f->len = 0;
    return 0;
}

void __hsx_stdio_flush(void) {
    fflush(stdout);
    fflush(stderr);
}

extern void (*__hsx_stdio_flush_hook)(void);

int fputc(int c, FILE *f) {
    __hsx_stdio_flush_hook = __hsx_stdio_flush;
    f->buf[f->len++] = (char)c;
    if (f->len == BUFSIZ || c == '\n' || f->fd == 2)
        fflush(f);
    return (unsigned char)c;
}

int putc(int c, FILE *f) { return fputc(c, f); }
int putchar(int c) { return fputc(c, stdout); }

size_t fwrite(const void *data, size_t size, size_t count, FILE *f) {
    const char *p = data;
    size_t total = size * count;
    for (size_t i = 0; i < total; i++)
        fputc(p[i], f);
    return count;
}

int fputs(const char *s, FILE *f) {
    while (*s)
        fputc(*s++, f);
    return 0;
}

int puts(const char *s) {
    fputs(s, stdout);
    fputc('\n', stdout);
    return 0;
}

int fgetc(FILE *f) {
    unsigned char c;
    fflush(stdout);
    return hsx_read(f->fd, &c, 1) == 1 ? c : EOF;
}

int getc(FILE *f) { return fgetc(f); }
int getchar(void) { return fgetc(stdin); }

char *fgets(char *buf, int size, FILE *f) {
    int n = 0;
    while (n + 1 < size) {
        int c = fgetc(f);
        if (c == EOF)
            break;
        buf[n++] = (char)c;
        if (c == '\n')
            break;
    }
    if (n == 0)
        return NULL;
    buf[n] = 0;
    return buf;
}

/* -- printf family: the formatter (printf.c) writes through a sink -------------------- */

struct __hsx_sink {
    void (*put)(struct __hsx_sink *, char);
    char *buf;
    size_t size;
    size_t count;
    FILE *file;
};

extern int __hsx_format(struct __hsx_sink *sink, const char *fmt, va_list ap);

static void put_file(struct __hsx_sink *s, char c) {
    fputc(c, s->file);
    s->count++;
}

static void put_buffer(struct __hsx_sink *s, char c) {
    if (s->count + 1 < s->size)
        s->buf[s->count] = c;
    s->count++;
}

int vfprintf(FILE *f, const char *fmt, va_list ap) {
    struct __hsx_sink sink = { put_file, 0, 0, 0, f };
    return __hsx_format(&sink, fmt, ap);
}

int vprintf(const char *fmt, va_list ap) { return vfprintf(stdout, fmt, ap); }

int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap) {
    struct __hsx_sink sink = { put_buffer, buf, size, 0, 0 };
    int n = __hsx_format(&sink, fmt, ap);
    if (size)
        buf[sink.count < size ? sink.count : size - 1] = 0;
    return n;
}

int vsprintf(char *buf, const char *fmt, va_list ap) {
    return vsnprintf(buf, (size_t)-1 / 2, fmt, ap);
}

int printf(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vfprintf(stdout, fmt, ap);
    va_end(ap);
    return n;
}

int fprintf(FILE *f, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vfprintf(f, fmt, ap);
    va_end(ap);
    return n;
}

int sprintf(char *buf, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vsprintf(buf, fmt, ap);
    va_end(ap);
    return n;
}

int snprintf(char *buf, size_t size, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, size, fmt, ap);
    va_end(ap);
    return n;
}
