/* Shared by printf.c (the format loop) and printf_float.c (%f %e %g). */
#ifndef HSX_PRINTF_IMPL_H
#define HSX_PRINTF_IMPL_H
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct __hsx_sink {
    void (*put)(struct __hsx_sink *, char);
    char *buf;
    size_t size;
    size_t count;
    void *file;        /* FILE * for the stream sink */
};

#define F_LEFT 1
#define F_PLUS 2
#define F_SPACE 4
#define F_ALT 8
#define F_ZERO 16

struct __hsx_spec {
    int flags;
    int width;
    int prec;          /* -1: not given */
    char conv;
};

static inline void put(struct __hsx_sink *s, char c) { s->put(s, c); }

/* The format loop (printf.c): the count of characters produced. */
int __hsx_format(struct __hsx_sink *s, const char *fmt, va_list ap);

/* Emit prefix + zeros + body with the field width and flags applied (printf.c). */
void __hsx_printf_field(struct __hsx_sink *s, const struct __hsx_spec *sp, const char *prefix,
                        int zeros, const char *body, int body_len);
#define field __hsx_printf_field

/* %f %F %e %E %g %G (printf_float.c).  The format loop refers to it weakly, so programs
 * that never pass a floating-point argument to a variadic function do not link it (and
 * the soft double it needs); the compiler makes every unit that does pass one refer to
 * it (docs/c-compiler.md, "Linking"). */
void __hsx_printf_float(struct __hsx_sink *s, struct __hsx_spec *sp, double x);

#endif
