/* The printf formatter: %d %i %u %x %X %o %c %s %p %% %n (%C %S), %f %F %e %E %g %G %a %A, flags
 * "-+ #0", width and precision (also "*"), lengths hh h l ll z j t L.
 *
 * The floating-point conversions live in printf_float.c, linked only into programs that
 * pass floating-point values to variadic functions (see printf_impl.h). */
#include "printf_impl.h"

extern void __hsx_printf_float(struct __hsx_sink *, struct __hsx_spec *, double)
    __attribute__((weak));

static void pad(struct __hsx_sink *s, char c, int n) {
    while (n-- > 0)
        put(s, c);
}

void __hsx_printf_field(struct __hsx_sink *s, const struct __hsx_spec *sp, const char *prefix,
                  int zeros, const char *body, int body_len) {
    int plen = (int)strlen(prefix);
    int total = plen + zeros + body_len;
    int fill = sp->width > total ? sp->width - total : 0;
    if (!(sp->flags & F_LEFT) && !(sp->flags & F_ZERO))
        pad(s, ' ', fill);
    for (int i = 0; i < plen; i++)
        put(s, prefix[i]);
    if (!(sp->flags & F_LEFT) && (sp->flags & F_ZERO))
        pad(s, '0', fill);
    pad(s, '0', zeros);
    for (int i = 0; i < body_len; i++)
        put(s, body[i]);
    if (sp->flags & F_LEFT)
        pad(s, ' ', fill);
}

static int utoa(char *end, unsigned long long v, unsigned base, int upper) {
    const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
    char *p = end;
    if (v >> 32) {
        while (v) {
            *--p = digits[v % base];
            v /= base;
        }
    } else {
        unsigned w = (unsigned)v;
        while (w) {
            *--p = digits[w % base];
            w /= base;
        }
    }
    return (int)(end - p);
}

static void format_int(struct __hsx_sink *s, struct __hsx_spec *sp, unsigned long long v,
                       int negative) {
    char buf[24];
    char *end = buf + sizeof buf;
    unsigned base = sp->conv == 'o' ? 8 : (sp->conv == 'x' || sp->conv == 'X' ||
                                           sp->conv == 'p') ? 16 : 10;
    int n = utoa(end, v, base, sp->conv == 'X');
    const char *prefix = "";
    if (negative)
        prefix = "-";
    else if (sp->flags & F_PLUS)
        prefix = "+";
    else if (sp->flags & F_SPACE)
        prefix = " ";
    if (sp->conv == 'p' || ((sp->flags & F_ALT) && v != 0 && base == 16))
        prefix = sp->conv == 'X' ? "0X" : "0x";
    int zeros = 0;
    if (sp->prec >= 0) {
        sp->flags &= ~F_ZERO;
        if (sp->prec > n)
            zeros = sp->prec - n;
    } else if (n == 0) {
        zeros = 1;                                   /* "0" */
    }
    if ((sp->flags & F_ALT) && base == 8 && zeros == 0 && (n == 0 || end[-n] != '0'))
        zeros = 1;
    field(s, sp, prefix, zeros, end - n, n);
}

/* -- the format loop ------------------------------------------------------------------ */

int __hsx_format(struct __hsx_sink *s, const char *fmt, va_list ap) {
    for (; *fmt; fmt++) {
        if (*fmt != '%') {
            put(s, *fmt);
            continue;
        }
        struct __hsx_spec sp = { 0, 0, -1, 0 };
        for (;;) {
            char c = *++fmt;
            if (c == '-') sp.flags |= F_LEFT;
            else if (c == '+') sp.flags |= F_PLUS;
            else if (c == ' ') sp.flags |= F_SPACE;
            else if (c == '#') sp.flags |= F_ALT;
            else if (c == '0') sp.flags |= F_ZERO;
            else if (c == '\'') continue;        /* grouping: none in the "C" locale */
            else break;
        }
        if (*fmt == '*') {
            sp.width = va_arg(ap, int);
            if (sp.width < 0) {
                sp.flags |= F_LEFT;
                sp.width = -sp.width;
            }
            fmt++;
        } else {
            while (*fmt >= '0' && *fmt <= '9')
                sp.width = sp.width * 10 + (*fmt++ - '0');
        }
        if (*fmt == '.') {
            fmt++;
            sp.prec = 0;
            if (*fmt == '*') {
                sp.prec = va_arg(ap, int);
                if (sp.prec < 0)
                    sp.prec = -1;
                fmt++;
            } else {
                while (*fmt >= '0' && *fmt <= '9')
                    sp.prec = sp.prec * 10 + (*fmt++ - '0');
            }
        }
        int length = 0;               /* 1 l, 2 ll, -1 h, -2 hh */
        for (;;) {
            if (*fmt == 'l') length = length == 1 ? 2 : 1;
            else if (*fmt == 'h') length = length == -1 ? -2 : -1;
            else if (*fmt == 'j' || *fmt == 'L' || *fmt == 'q') length = 2;
            else if (*fmt == 'z' || *fmt == 't') length = 1;
            else break;
            fmt++;
        }
        if (sp.flags & F_LEFT)
            sp.flags &= ~F_ZERO;
        sp.conv = *fmt;
        if (sp.conv == 'C' || sp.conv == 'S') {  /* XSI: %C = %lc, %S = %ls */
            sp.conv = sp.conv == 'C' ? 'c' : 's';
            length = 1;
        }
        switch (sp.conv) {
        case 'd':
        case 'i': {
            long long v = length == 2 ? va_arg(ap, long long) : va_arg(ap, int);
            if (length == -1) v = (short)v;
            if (length == -2) v = (signed char)v;
            unsigned long long mag = v < 0 ? 0 - (unsigned long long)v : (unsigned long long)v;
            format_int(s, &sp, mag, v < 0);
            break;
        }
        case 'u':
        case 'x':
        case 'X':
        case 'o': {
            unsigned long long v = length == 2 ? va_arg(ap, unsigned long long)
                                               : va_arg(ap, unsigned);
            if (length == -1) v = (unsigned short)v;
            if (length == -2) v = (unsigned char)v;
            sp.flags &= ~(F_PLUS | F_SPACE);
            format_int(s, &sp, v, 0);
            break;
        }
        case 'p': {
            void *p = va_arg(ap, void *);
            if (!p) {
                sp.prec = -1;
                sp.flags &= ~F_ZERO;
                field(s, &sp, "", 0, "(nil)", 5);
            } else {
                format_int(s, &sp, (uintptr_t)p, 0);
            }
            break;
        }
        case 'c': {
            int wide = va_arg(ap, int);        /* %lc: a wint_t ("C" locale: ASCII) */
            char c = (char)(length == 1 && (wide < 0 || wide > 127) ? '?' : wide);
            sp.flags &= ~F_ZERO;
            field(s, &sp, "", 0, &c, 1);
            break;
        }
        case 's': {
            if (length == 1) {                 /* %ls: a wchar_t string */
                const int *ws = va_arg(ap, const int *);
                if (!ws)
                    ws = L"(null)";
                int n = 0;
                while (ws[n] && (sp.prec < 0 || n < sp.prec))
                    n++;
                if (!(sp.flags & F_LEFT))
                    pad(s, ' ', sp.width - n);
                for (int i = 0; i < n; i++)
                    put(s, (char)(ws[i] > 0 && ws[i] < 128 ? ws[i] : '?'));
                if (sp.flags & F_LEFT)
                    pad(s, ' ', sp.width - n);
                break;
            }
            const char *str = va_arg(ap, const char *);
            if (!str)
                str = "(null)";
            int n = 0;
            while (str[n] && (sp.prec < 0 || n < sp.prec))
                n++;
            sp.flags &= ~F_ZERO;
            field(s, &sp, "", 0, str, n);
            break;
        }
        case 'f':
        case 'F':
        case 'e':
        case 'E':
        case 'g':
        case 'G':
        case 'a':
        case 'A':
        {
            double x = va_arg(ap, double);
            if (__hsx_printf_float)
                __hsx_printf_float(s, &sp, x);
            else
                put(s, '?');             /* float formatting not linked (see printf_impl.h) */
            break;
        }
        case 'n': {
            void *p = va_arg(ap, void *);
            long long n = (long long)s->count;
            if (length == 2) *(long long *)p = n;
            else if (length == 1) *(long *)p = (long)n;
            else if (length == -1) *(short *)p = (short)n;
            else if (length == -2) *(signed char *)p = (signed char)n;
            else *(int *)p = (int)n;
            break;
        }
        case '%':
            put(s, '%');
            break;
        case 0:
            return (int)s->count;
        default:
            put(s, '%');
            put(s, *fmt);
            break;
        }
    }
    return (int)s->count;
}
