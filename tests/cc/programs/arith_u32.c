#include <stdio.h>
#include <stdint.h>
int main(void) {
    volatile uint32_t a = 4000000000u, b = 3u, c = 0x80000000u, d = 12345u;
    printf("%u %u %u %u\n", a + d, a - d, a * b, a / b);
    printf("%u %u %u\n", a % 7u, c >> 31, c >> 1);
    printf("%u %u %u %u\n", a > d, c > a, d < c, (a + a) < a);
    printf("%x %X %o\n", a, c | d, d);
    uint32_t h = 2166136261u;
    const char *s = "hash me";
    while (*s) { h ^= (uint8_t)*s++; h *= 16777619u; }
    printf("%u %08x\n", h, h);
    uint32_t m = 0xFFFFFFFFu;
    printf("%u %u\n", m / 10u, m % 10u);
    return (int)(h & 0x7F);
}
