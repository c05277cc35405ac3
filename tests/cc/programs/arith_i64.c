#include <stdio.h>
#include <stdint.h>
static int64_t mix(int64_t a, int64_t b) { return a * b - (a >> 7) + (b << 9); }
int main(void) {
    volatile int64_t a = 123456789012345LL, b = -9876543210LL, c = 7;
    printf("%lld %lld %lld\n", a + b, a - b, mix(a, c));
    printf("%lld %lld %lld %lld\n", a / c, a % c, b / c, b % c);
    printf("%lld %lld %lld\n", a / b, a % b, b * 3);
    printf("%lld %lld\n", a >> 13, b >> 40);
    printf("%d %d %d %d\n", a > b, b < 0, a == a, (a & 1) != 0);
    int64_t f = 1;
    for (int i = 1; i <= 20; i++) f *= i;
    printf("20! = %lld\n", f);
    volatile int s = 35;
    printf("%lld %lld\n", (int64_t)1 << s, b >> (s - 20));
    return (int)(f % 251);
}
