/* long long and unsigned long long: arithmetic, division and remainder by constants
 * and variables, shifts by variable amounts, compares, conversions with double. */
#include <stdio.h>
#include <stdint.h>

static volatile long long vs[] = { 0, 1, -1, 7, -7, 1000000007LL, -123456789012345LL,
                                   INT64_MAX, INT64_MIN + 1, 0x7FFFFFFF, 0x80000000LL };

int main(void) {
    int n = (int)(sizeof vs / sizeof vs[0]);
    unsigned long long h = 1469598103934665603ULL;
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++) {
            long long a = vs[i], b = vs[j];
            h = (h ^ (unsigned long long)(a + b)) * 1099511628211ULL;
            h = (h ^ (unsigned long long)(a * b)) * 1099511628211ULL;
            if (b != 0 && !(a == INT64_MIN && b == -1)) {
                h = (h ^ (unsigned long long)(a / b)) * 1099511628211ULL;
                h = (h ^ (unsigned long long)(a % b)) * 1099511628211ULL;
                h ^= (unsigned long long)a / (unsigned long long)b;
                h ^= (unsigned long long)a % (unsigned long long)b;
            }
            h += (a < b) + 2 * (a <= b) + 4 * ((unsigned long long)a < (unsigned long long)b);
        }
    }
    printf("%016llx\n", h);
    long long x = 0x0123456789ABCDEFLL;
    for (int s = 0; s < 64; s += 7)
        printf("%llx %llx %llx\n", x << s, x >> s, (unsigned long long)-x >> s);
    printf("%lld %lld %lld %lld\n", x / 10, x % 10, -x / 1000, -x % 1000);
    printf("%llu %llu\n", 18446744073709551615ULL / 3, 18446744073709551615ULL % 1000);
    double d = (double)x;
    long long back = (long long)d;
    unsigned long long big = 18000000000000000000ULL;
    printf("%.1f %lld %.1f %llu\n", d, back, (double)big, (unsigned long long)(double)big);
    printf("%lld %lld\n", (long long)-1.5e18, (long long)3.99);
    printf("%d %d %d\n", (int)(x >> 32), (int)x, (int)(unsigned)(x >> 40));
    long long acc = 1;
    for (int i = 1; i <= 20; i++)
        acc *= i;
    printf("20! = %lld\n", acc);
    return 0;
}
