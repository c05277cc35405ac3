#include <stdio.h>
#include <stdarg.h>
static int sum_ints(int n, ...) {
    va_list ap; va_start(ap, n);
    int s = 0;
    for (int i = 0; i < n; i++) s += va_arg(ap, int);
    va_end(ap);
    return s;
}
static long long mixed(const char *fmt, ...) {
    va_list ap; va_start(ap, fmt);
    long long total = 0;
    for (; *fmt; fmt++) {
        if (*fmt == 'i') total += va_arg(ap, int);
        else if (*fmt == 'l') total += va_arg(ap, long long);
        else if (*fmt == 'd') total += (long long)(va_arg(ap, double) * 10);
        else if (*fmt == 's') total += va_arg(ap, const char *)[0];
    }
    va_end(ap);
    return total;
}
static void vlog(const char *fmt, va_list ap) { vprintf(fmt, ap); }
static void logf2(const char *fmt, ...) { va_list ap; va_start(ap, fmt); vlog(fmt, ap); va_end(ap); }
static int count_copy(int n, ...) {
    va_list a, b; va_start(a, n); va_copy(b, a);
    int x = 0; for (int i = 0; i < n; i++) x += va_arg(a, int);
    int y = 0; for (int i = 0; i < n; i++) y += va_arg(b, int) * 2;
    va_end(a); va_end(b);
    return x + y;
}
int main(void) {
    printf("%d\n", sum_ints(6, 1, 2, 3, 4, 5, 6));
    printf("%lld\n", mixed("ilidsi", 5, 1LL << 35, 7, 2.5, "A", 9));
    logf2("%s=%d %s=%lld\n", "a", 1, "b", 123456789012LL);
    printf("%d\n", count_copy(4, 10, 20, 30, 40));
    return sum_ints(3, 10, 20, 30);
}
