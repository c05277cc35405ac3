/* The scanf family: %d %i %u %o %x %X %p %c %s %[...] %n %% and %f %e %g %a (all
 * cases), with '*' (no assignment), a maximum field width and the length modifiers
 * hh h l ll j z t L q (%lc %ls %l[ and %C %S store wchar_t).  Numbers are converted
 * by strtoll/strtoull/strtod, so they round and saturate as those do. */
#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "stdio_impl.h"

struct source {
    const char *str;          /* reading a string, or */
    FILE *file;               /* a stream */
    int count;                /* characters consumed, for %n */
};

static int next(struct source *src) {
    int c;
    if (src->file)
        c = fgetc(src->file);
    else
        c = *src->str ? (unsigned char)*src->str++ : EOF;
    if (c != EOF)
        src->count++;
    return c;
}

static void back(struct source *src, int c) {
    if (c == EOF)
        return;
    src->count--;
    if (src->file)
        ungetc(c, src->file);
    else
        src->str--;
}

static int skip_space(struct source *src) {
    int c;
    while ((c = next(src)) != EOF && isspace(c))
        ;
    back(src, c);
    return c;
}

/* Appends characters to a bounded buffer, honouring the field width. */
struct field {
    char text[128];
    int n;
    int width;                /* characters left to read */
    int c;                    /* the current character */
};

static int take(struct field *f, struct source *src) {
    if (f->n < (int)sizeof f->text - 1)
        f->text[f->n++] = (char)f->c;
    f->c = --f->width > 0 ? next(src) : EOF;
    return 1;
}

static int hex_digit(int c) { return isxdigit(c); }
static int oct_digit(int c) { return c >= '0' && c <= '7'; }

/* An integer's text in `f` for base 8, 10, 16 or 0 (as C: 0x.. hex, 0.. octal). */
static int scan_integer(struct field *f, struct source *src, int base) {
    if (f->c == '+' || f->c == '-')
        take(f, src);
    int any = 0;
    if ((base == 0 || base == 16) && f->c == '0') {
        take(f, src);
        any = 1;
        if (f->c == 'x' || f->c == 'X') {
            take(f, src);
            base = 16;
        } else if (base == 0) {
            base = 8;
        }
    }
    if (base == 0)
        base = 10;
    for (;;) {
        int ok = base == 16 ? hex_digit(f->c) : base == 8 ? oct_digit(f->c) : isdigit(f->c);
        if (f->c == EOF || !ok)
            break;
        take(f, src);
        any = 1;
    }
    return any;
}

static int match_word(struct field *f, struct source *src, const char *word) {
    for (; *word; word++) {
        if (f->c == EOF || tolower(f->c) != *word)
            return 0;
        take(f, src);
    }
    return 1;
}

/* A floating-point number's text (decimal, hexadecimal, inf, infinity, nan). */
static int scan_float(struct field *f, struct source *src) {
    if (f->c == '+' || f->c == '-')
        take(f, src);
    if (tolower(f->c) == 'i') {
        if (!match_word(f, src, "inf"))
            return 0;
        if (tolower(f->c) == 'i')
            match_word(f, src, "inity");
        return 1;
    }
    if (tolower(f->c) == 'n')
        return match_word(f, src, "nan");
    int any = 0, hex = 0;
    if (f->c == '0') {
        take(f, src);
        any = 1;
        if (f->c == 'x' || f->c == 'X') {
            take(f, src);
            hex = 1;
        }
    }
    int (*digit)(int) = hex ? hex_digit : isdigit;
    while (f->c != EOF && digit(f->c)) {
        take(f, src);
        any = 1;
    }
    if (f->c == '.') {
        take(f, src);
        while (f->c != EOF && digit(f->c)) {
            take(f, src);
            any = 1;
        }
    }
    if (any && f->c != EOF && tolower(f->c) == (hex ? 'p' : 'e')) {
        take(f, src);
        if (f->c == '+' || f->c == '-')
            take(f, src);
        while (f->c != EOF && isdigit(f->c))
            take(f, src);
    }
    return any;
}

static void store_integer(void *p, int length, unsigned long long v) {
    switch (length) {
    case -2: *(signed char *)p = (signed char)v; break;
    case -1: *(short *)p = (short)v; break;
    case 1: *(long *)p = (long)v; break;
    case 2: *(long long *)p = (long long)v; break;
    default: *(int *)p = (int)v; break;
    }
}

/* Character `i` of a %c/%s/%[ target: a char, or a wchar_t ("C" locale: a byte is a
 * character). */
static void put_char(void *out, int wide, int i, int c) {
    if (wide)
        ((wchar_t *)out)[i] = (wchar_t)(unsigned char)c;
    else
        ((char *)out)[i] = (char)c;
}

/* The scanset of %[...] starting at `fmt` (after '['): where it ends. */
static const char *scanset(const char *fmt, unsigned char set[32]) {
    int invert = 0;
    memset(set, 0, 32);
    if (*fmt == '^') {
        invert = 1;
        fmt++;
    }
    if (*fmt == ']') {
        set[']' >> 3] |= 1 << (']' & 7);
        fmt++;
    }
    for (; *fmt && *fmt != ']'; fmt++) {
        int lo = (unsigned char)*fmt, hi = lo;
        if (fmt[1] == '-' && fmt[2] && fmt[2] != ']') {
            hi = (unsigned char)fmt[2];
            fmt += 2;
        }
        for (int c = lo; c <= hi; c++)
            set[c >> 3] |= (unsigned char)(1 << (c & 7));
    }
    if (invert)
        for (int i = 0; i < 32; i++)
            set[i] = (unsigned char)~set[i];
    return fmt;
}

static int scan(struct source *src, const char *fmt, va_list ap) {
    int assigned = 0, converted = 0;
    for (; *fmt; fmt++) {
        if (isspace((unsigned char)*fmt)) {
            skip_space(src);
            continue;
        }
        if (*fmt != '%' || fmt[1] == '%') {
            if (*fmt == '%') {
                fmt++;
                skip_space(src);
            }
            int c = next(src);
            if (c != (unsigned char)*fmt) {
                back(src, c);
                if (c == EOF && !converted)
                    return EOF;
                break;
            }
            continue;
        }
        fmt++;
        int suppress = 0, width = 0, length = 0;
        if (*fmt == '*') {
            suppress = 1;
            fmt++;
        }
        while (isdigit((unsigned char)*fmt))
            width = width * 10 + (*fmt++ - '0');
        for (;; fmt++) {
            if (*fmt == 'h') length = length == -1 ? -2 : -1;
            else if (*fmt == 'l') length = length == 1 ? 2 : 1;
            else if (*fmt == 'L' || *fmt == 'q' || *fmt == 'j') length = 2;
            else if (*fmt == 'z' || *fmt == 't') length = 1;
            else break;
        }
        char conv = *fmt;
        if (!conv)
            break;
        if (conv == 'C' || conv == 'S') {        /* XSI: %C = %lc, %S = %ls */
            conv = conv == 'C' ? 'c' : 's';
            length = 1;
        }
        int wide = length == 1;                   /* %lc %ls %l[: into wchar_t */
        if (conv == 'n') {
            if (!suppress)
                store_integer(va_arg(ap, void *), length, (unsigned long long)src->count);
            continue;
        }
        if (conv != 'c' && conv != '[' && skip_space(src) == EOF) {
            if (!converted)
                return EOF;
            break;
        }
        struct field f;
        f.n = 0;
        f.width = width > 0 ? width : (conv == 'c' ? 1 : 0x7FFFFFFF);
        f.c = next(src);
        if (f.c == EOF) {
            if (!converted)
                return EOF;
            break;
        }
        int ok = 1;
        switch (conv) {
        case 'd': case 'i': case 'u': case 'o': case 'x': case 'X': case 'p': {
            int base = conv == 'd' || conv == 'u' ? 10 : conv == 'i' ? 0 : conv == 'o' ? 8 : 16;
            ok = scan_integer(&f, src, base);
            back(src, f.c);
            if (!ok)
                break;
            f.text[f.n] = 0;
            if (suppress)
                break;
            if (conv == 'p') {
                *va_arg(ap, void **) = (void *)(uintptr_t)strtoul(f.text, NULL, 16);
            } else {
                unsigned long long v = conv == 'd' || conv == 'i'
                    ? (unsigned long long)strtoll(f.text, NULL, base)
                    : strtoull(f.text, NULL, base);
                store_integer(va_arg(ap, void *), length, v);
            }
            assigned++;
            break;
        }
        case 'a': case 'A': case 'e': case 'E': case 'f': case 'F': case 'g': case 'G': {
            ok = scan_float(&f, src);
            back(src, f.c);
            if (!ok)
                break;
            f.text[f.n] = 0;
            if (suppress)
                break;
            if (length == 0)
                *va_arg(ap, float *) = strtof(f.text, NULL);
            else
                *va_arg(ap, double *) = strtod(f.text, NULL);
            assigned++;
            break;
        }
        case 'c': {
            void *out = suppress ? NULL : va_arg(ap, void *);
            int got = 0;
            while (f.c != EOF) {
                if (out)
                    put_char(out, wide, got, f.c);
                got++;
                f.c = got < f.width ? next(src) : EOF;
                if (got == f.width)
                    break;
            }
            ok = got > 0;
            if (ok && out)
                assigned++;
            break;
        }
        case 's':
        case '[': {
            unsigned char set[32];
            if (conv == '[')
                fmt = scanset(fmt + 1, set);
            void *out = suppress ? NULL : va_arg(ap, void *);
            int got = 0;
            while (f.c != EOF) {
                int in = conv == 's' ? !isspace(f.c) : (set[f.c >> 3] >> (f.c & 7)) & 1;
                if (!in)
                    break;
                if (out)
                    put_char(out, wide, got, f.c);
                got++;
                f.c = got < f.width ? next(src) : EOF;
                if (got == f.width) {
                    f.c = EOF;
                    break;
                }
            }
            back(src, f.c);
            ok = got > 0;
            if (ok && out) {
                put_char(out, wide, got, 0);
                assigned++;
            }
            break;
        }
        default:
            ok = 0;
            back(src, f.c);
            break;
        }
        if (!ok)
            break;
        converted = 1;
    }
    return assigned;
}

int vsscanf(const char *s, const char *fmt, va_list ap) {
    struct source src = { s, NULL, 0 };
    return scan(&src, fmt, ap);
}

int vfscanf(FILE *f, const char *fmt, va_list ap) {
    struct source src = { NULL, f, 0 };
    return scan(&src, fmt, ap);
}

int vscanf(const char *fmt, va_list ap) { return vfscanf(stdin, fmt, ap); }

int sscanf(const char *s, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vsscanf(s, fmt, ap);
    va_end(ap);
    return n;
}

int fscanf(FILE *f, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vfscanf(f, fmt, ap);
    va_end(ap);
    return n;
}

int scanf(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vfscanf(stdin, fmt, ap);
    va_end(ap);
    return n;
}
