/* The wide-character stdio of wchar.h in the "C" locale, where a wide character is
 * one byte of a stream (ASCII; others are EILSEQ): fputwc fgetwc ... and the wprintf
 * and wscanf families, which narrow their wide format (and input) and run the byte
 * formatter and scanner. */
#include <stdlib.h>
#include <wchar.h>
#include "printf_impl.h"
#include "stdio_impl.h"

wint_t fputwc(wchar_t c, FILE *f) {
    if (c < 0 || c > 127) {
        errno = EILSEQ;
        f->flags |= FL_ERR;
        return WEOF;
    }
    return fputc(c, f) == EOF ? WEOF : (wint_t)c;
}
wint_t putwc(wchar_t c, FILE *f) { return fputwc(c, f); }
wint_t putwchar(wchar_t c) { return fputwc(c, stdout); }

int fputws(const wchar_t *s, FILE *f) {
    for (; *s; s++)
        if (fputwc(*s, f) == WEOF)
            return -1;
    return 1;
}

wint_t fgetwc(FILE *f) {
    int c = fgetc(f);
    if (c == EOF)
        return WEOF;
    if (c > 127) {
        errno = EILSEQ;
        f->flags |= FL_ERR;
        return WEOF;
    }
    return (wint_t)c;
}
wint_t getwc(FILE *f) { return fgetwc(f); }
wint_t getwchar(void) { return fgetwc(stdin); }

wint_t ungetwc(wint_t c, FILE *f) {
    if (c == WEOF || c > 127)
        return WEOF;
    return ungetc((int)c, f) == EOF ? WEOF : c;
}

wchar_t *fgetws(wchar_t *buf, int size, FILE *f) {
    int n = 0;
    while (n + 1 < size) {
        wint_t c = fgetwc(f);
        if (c == WEOF)
            break;
        buf[n++] = (wchar_t)c;
        if (c == L'\n')
            break;
    }
    if (n == 0 || (f->flags & FL_ERR))
        return NULL;
    buf[n] = 0;
    return buf;
}

/* Streams have no orientation here: byte and wide functions mix freely. */
int fwide(FILE *f, int mode) {
    (void)f;
    return mode;
}

/* A wide string as bytes (others as '?'), in `small` when it fits, else malloc'd;
 * NULL when out of memory. */
static char *narrow(const wchar_t *w, char *small, size_t cap) {
    size_t n = wcslen(w);
    char *out = n < cap ? small : malloc(n + 1);
    if (!out)
        return NULL;
    for (size_t i = 0; i <= n; i++)
        out[i] = (char)(w[i] >= 0 && w[i] < 128 ? w[i] : '?');
    return out;
}

static void release(char *text, char *small) {
    if (text != small)
        free(text);
}

int vfwprintf(FILE *f, const wchar_t *fmt, va_list ap) {
    char small[128];
    char *format = narrow(fmt, small, sizeof small);
    if (!format)
        return -1;
    int n = vfprintf(f, format, ap);
    release(format, small);
    return n;
}

static void put_wide(struct __hsx_sink *s, char c) {
    if (s->count + 1 < s->size)
        ((wchar_t *)(void *)s->buf)[s->count] = (wchar_t)(unsigned char)c;
    s->count++;
}

/* -1 when `size` wide characters (the terminating one included) were too few. */
int vswprintf(wchar_t *buf, size_t size, const wchar_t *fmt, va_list ap) {
    char small[128];
    char *format = narrow(fmt, small, sizeof small);
    if (!format)
        return -1;
    struct __hsx_sink sink = { put_wide, (char *)(void *)buf, size, 0, 0 };
    int n = __hsx_format(&sink, format, ap);
    release(format, small);
    if (size)
        buf[sink.count < size ? sink.count : size - 1] = 0;
    return sink.count < size ? n : -1;
}

int vwprintf(const wchar_t *fmt, va_list ap) { return vfwprintf(stdout, fmt, ap); }

int wprintf(const wchar_t *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vfwprintf(stdout, fmt, ap);
    va_end(ap);
    return n;
}

int fwprintf(FILE *f, const wchar_t *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vfwprintf(f, fmt, ap);
    va_end(ap);
    return n;
}

int swprintf(wchar_t *buf, size_t size, const wchar_t *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vswprintf(buf, size, fmt, ap);
    va_end(ap);
    return n;
}

int vswscanf(const wchar_t *s, const wchar_t *fmt, va_list ap) {
    char small_fmt[128], small_text[128];
    char *format = narrow(fmt, small_fmt, sizeof small_fmt);
    char *text = narrow(s, small_text, sizeof small_text);
    int n = format && text ? vsscanf(text, format, ap) : EOF;
    if (format)
        release(format, small_fmt);
    if (text)
        release(text, small_text);
    return n;
}

int vfwscanf(FILE *f, const wchar_t *fmt, va_list ap) {
    char small[128];
    char *format = narrow(fmt, small, sizeof small);
    if (!format)
        return EOF;
    int n = vfscanf(f, format, ap);
    release(format, small);
    return n;
}

int vwscanf(const wchar_t *fmt, va_list ap) { return vfwscanf(stdin, fmt, ap); }

int swscanf(const wchar_t *s, const wchar_t *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vswscanf(s, fmt, ap);
    va_end(ap);
    return n;
}

int fwscanf(FILE *f, const wchar_t *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vfwscanf(f, fmt, ap);
    va_end(ap);
    return n;
}

int wscanf(const wchar_t *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vfwscanf(stdin, fmt, ap);
    va_end(ap);
    return n;
}
