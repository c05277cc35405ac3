/* The printf family: every conversion, flag, width, precision and length modifier;
 * snprintf truncation and its return value; %n with every length; the ' flag;
 * sprintf into buffers. */
#include <stdio.h>
#include <stdint.h>
#include <stddef.h>
#include <string.h>

int main(void) {
    printf("[%d] [%5d] [%-5d] [%05d] [%+d] [% d] [%.3d] [%8.3d] [%-+8.3d]\n",
           42, 42, 42, 42, 42, 42, 42, -42, 42);
    printf("[%u] [%x] [%X] [%o] [%#x] [%#X] [%#o] [%#o] [%#x]\n", 3000000000u, 0xbeef,
           0xbeef, 8, 255, 255, 8, 0, 0);
    printf("[%hhd] [%hhu] [%hd] [%hu] [%ld] [%lu] [%lld] [%llu] [%llx]\n", 300, 300, 70000,
           70000, -5L, 5UL, -1LL << 62, ~0ULL, 0xDEADBEEFCAFEULL);
    printf("[%zu] [%td] [%jd] [%ju]\n", sizeof(int[10]), (ptrdiff_t)-3, (intmax_t)-77,
           (uintmax_t)77);
    printf("[%c] [%3c] [%-3c] [%s] [%.2s] [%6s] [%-6s] [%.*s] [%*d] [%-*d]\n", 'x', 'y', 'z',
           "str", "str", "str", "str", 3, "abcdef", 4, 7, 4, 7);
    printf("[%%] [%.0d] [%.0x] [%#.0o]\n", 0, 0, 0);
    printf("[%f] [%.2f] [%10.4f] [%-10.1f] [%+.3f] [% .1f] [%010.2f] [%#.0f] [%.0f] [%.0f]\n",
           3.14159, 3.14159, 3.14159, 3.14159, 3.14159, 3.14159, -3.14159, 3.0, 0.5, 1.5);
    printf("[%e] [%.2e] [%E] [%12.3e] [%g] [%g] [%g] [%g] [%.3g] [%#g] [%G]\n", 123456.789,
           0.000123, 1e100, -1.5, 100000.0, 1000000.0, 0.0001, 0.00001, 3.14159, 1.0, 1e-20);
    printf("[%a] [%.2a] [%A] [%a] [%10.1a] [%-12a]\n", 1.0, 1.999, 0.5, -0.0, 3.0, 2.0);
    printf("[%f] [%e] [%g] [%F] [%5.1f] [%-6g]\n", 1.0 / 0.0, -1.0 / 0.0, 1e308 * 10,
           1.0 / 0.0, 0.0 / 0.0 < 0 ? 1.0 : 2.0, 0.0);
    printf("[%.20f] [%.15e] [%.17g]\n", 0.1, 2.0 / 3, 1.0 / 3);
    printf("[%f] [%.3f] [%g]\n", 1e20, 123456789.9876, 123456789.0);
    char buf[16];
    int n = snprintf(buf, sizeof buf, "%s-%d-%s", "hello", 12345, "world");
    printf("%d [%s]\n", n, buf);
    n = snprintf(buf, 1, "abc");
    printf("%d [%s]\n", n, buf);
    n = snprintf(NULL, 0, "%d%d", 123, 456);
    printf("%d\n", n);
    int pos1, pos2;
    printf("ab%ncdef%n\n", &pos1, &pos2);
    printf("%d %d\n", pos1, pos2);
    char big[64];
    sprintf(big, "%08.3f|%x|%c%c", -1.5, 48879, 'o', 'k');
    printf("%s %d\n", big, (int)strlen(big));
    printf("%5.2s|%.0s|%s\n", "abc", "hidden", "");
    struct { signed char before, c, after; } hh = { 7, 0, 9 };
    struct { short a, b, c; } h = { 1, 2, 3 };
    long long ll[3] = { -1, -1, -1 };
    long l = -1;
    intmax_t j = -1;
    size_t z = 99;
    ptrdiff_t t = -5;
    printf("abcdef%hhn|%hn|%lln|%ln|%jn|%zn|%tn\n", &hh.c, &h.b, &ll[1], &l, &j, &z, &t);
    printf("%d %d %d | %d %d %d | %lld %lld %lld | %ld %jd %zu %td\n", hh.before, hh.c,
           hh.after, h.a, h.b, h.c, ll[0], ll[1], ll[2], l, j, z, t);
    printf("%'d %'.2f %'5d|\n", 1234567, 1234.5, 42);    /* no grouping in "C" */
    return 0;
}
