#include <stdio.h>
#include <limits.h>
int main(void) {
    printf("[%d][%5d][%-5d][%05d][%+d][% d][%.3d][%8.3d][%-8.3d|]\n", 42, 42, 42, 42, 42, 42, 42, 42, 42);
    printf("[%i][%u][%x][%X][%#x][%#X][%o][%#o][%#o]\n", -7, 3000000000u, 0xbeef, 0xbeef, 255, 255, 8, 8, 0);
    printf("[%c][%3c][%-3c][%s][%10s][%-10s][%.2s][%%]\n", 'a', 'b', 'c', "str", "right", "left", "trunc");
    printf("[%d][%d][%u][%x]\n", INT_MIN, INT_MAX, UINT_MAX, 0);
    printf("[%lld][%llu][%llx][%20lld][%-20lld]\n", LLONG_MIN, ULLONG_MAX, 0x123456789abcULL, -5LL, 5LL);
    printf("[%hd][%hhd][%hu][%hhu][%ld][%lu]\n", 70000, 300, 70000, 300, -5L, 5UL);
    printf("[%*d][%-*d][%.*d][%*.*d]\n", 6, 1, 6, 2, 4, 3, 8, 5, 4);
    printf("[%.0f][%.1f][%.3f][%10.2f][%-10.2f][%+.2f][%010.3f]\n", 2.5, 0.05, -1.0005, 3.14159, 2.5, 1.0, -3.5);
    printf("[%e][%.2e][%E][%.0e][%#.0e]\n", 123.456, 0.000123, 1e100, 5e-5, 5e-5);
    printf("[%g][%g][%g][%g][%.3g][%#g][%G]\n", 1e-5, 123456.0, 1234567.0, 0.0001, 3.14159, 1.5, 1e-10);
    printf("[%f][%e][%g]\n", 0.0, -0.0, 100000.0);
    char buf[10];
    int n = snprintf(buf, sizeof buf, "%s-%d", "overflowing", 12345);
    printf("%d [%s]\n", n, buf);
    n = sprintf(buf, "%x", 48879);
    printf("%d [%s]\n", n, buf);
    return 0;
}
