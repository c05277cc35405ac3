/* The printf family: the formatter (printf.c) writes through a sink. */
#include "printf_impl.h"
#include "stdio_impl.h"

static void put_file(struct __hsx_sink *s, char c) {
    fputc(c, s->file);
    s->count++;
}

static void put_buffer(struct __hsx_sink *s, char c) {
    if (s->count + 1 < s->size)
        s->buf[s->count] = c;
    s->count++;
}

/* An unbuffered stream gets the whole text in one write, as glibc does. */
int vfprintf(FILE *f, const char *fmt, va_list ap) {
    struct __hsx_sink sink = { put_file, 0, 0, 0, f };
    unsigned char mode = f->mode;
    if (mode == _IONBF)
        f->mode = _IOFBF;
    int n = __hsx_format(&sink, fmt, ap);
    if (mode == _IONBF) {
        f->mode = mode;
        fflush(f);
    }
    return ferror(f) ? -1 : n;
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
