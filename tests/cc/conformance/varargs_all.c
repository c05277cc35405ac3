/* Variadic functions with every kind of argument: promoted char/short/float, int,
 * long, long long, double, long double, pointers, structs; va_copy; va_list passed on. */
#include <stdio.h>
#include <stdarg.h>

struct pt { int x, y; };
struct big { double d; long long l; char tag[5]; };

static double sum(const char *kinds, ...) {
    va_list ap;
    va_start(ap, kinds);
    double t = 0;
    for (const char *k = kinds; *k; k++) {
        switch (*k) {
        case 'c': t += (char)va_arg(ap, int); break;
        case 'h': t += (short)va_arg(ap, int); break;
        case 'i': t += va_arg(ap, int); break;
        case 'u': t += va_arg(ap, unsigned); break;
        case 'l': t += va_arg(ap, long); break;
        case 'L': t += (double)va_arg(ap, long long); break;
        case 'f': t += va_arg(ap, double); break;      /* float promoted to double */
        case 'd': t += va_arg(ap, double); break;
        case 'D': t += (double)va_arg(ap, long double); break;
        case 'p': t += *va_arg(ap, int *); break;
        case 's': { struct pt p = va_arg(ap, struct pt); t += p.x * 10 + p.y; break; }
        case 'b': { struct big b = va_arg(ap, struct big); t += b.d + b.l + b.tag[0]; break; }
        }
    }
    va_end(ap);
    return t;
}

static int count_twice(int n, ...) {
    va_list ap, again;
    va_start(ap, n);
    va_copy(again, ap);
    int a = 0, b = 0;
    for (int i = 0; i < n; i++)
        a += va_arg(ap, int);
    for (int i = 0; i < n; i++)
        b += va_arg(again, int) * 2;
    va_end(again);
    va_end(ap);
    return a * 1000 + b;
}

static int say(char *out, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vsprintf(out, fmt, ap);
    va_end(ap);
    return n;
}

static long long mix(int a, long long b, int c, double d, int e, ...) {
    va_list ap;
    va_start(ap, e);
    long long x = va_arg(ap, long long);
    double y = va_arg(ap, double);
    int z = va_arg(ap, int);
    va_end(ap);
    return a + b + c + (long long)d + e + x + (long long)y + z;
}

int main(void) {
    int seven = 7;
    char c = -3;
    short s = 300;
    float f = 0.25f;
    long double ld = 2.5L;
    printf("%.3f\n", sum("chiulLfdDp", c, s, -4, 4000000000u, 100000L, 1LL << 40, f, 1.5, ld,
                         &seven));
    printf("%.3f\n", sum("sbs", (struct pt){ 1, 2 }, (struct big){ 0.5, 10, "x" },
                         (struct pt){ 3, 4 }));
    printf("%d\n", count_twice(5, 1, 2, 3, 4, 5));
    char buf[80];
    int n = say(buf, "%s-%d-%c-%.2f-%lld", "v", 42, 'z', 3.14159, -5LL);
    printf("%s %d\n", buf, n);
    printf("%lld\n", mix(1, 1LL << 33, 3, 4.75, 5, 6LL << 34, 7.5, 8));
    return 0;
}
