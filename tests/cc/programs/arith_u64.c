#include <stdio.h>
#include <stdint.h>
int main(void) {
    volatile uint64_t a = 18000000000000000000ULL, b = 3000000000ULL, c = 0xFFFFFFFFULL;
    printf("%llu %llu %llu\n", a + b, a - b, b * c);
    printf("%llu %llu\n", a / b, a % b);
    printf("%llu %llu %llx\n", a >> 33, c << 20, a ^ c);
    printf("%d %d %d\n", a > b, (a + a) < a, c < b);
    uint64_t x = 88172645463325252ULL;
    for (int i = 0; i < 10; i++) {
        x ^= x << 13; x ^= x >> 7; x ^= x << 17;
        printf("%016llx\n", x);
    }
    uint32_t lo = (uint32_t)x, hi = (uint32_t)(x >> 32);
    printf("%u %u\n", lo, hi);
    return (int)(x % 200);
}
