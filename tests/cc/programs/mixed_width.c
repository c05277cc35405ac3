#include <stdio.h>
#include <stdint.h>
int main(void) {
    int8_t a = -100; uint8_t b = 200; int16_t c = -30000; uint16_t d = 60000; int32_t e = -2000000000; uint32_t f = 4000000000u;
    int64_t g = (int64_t)a * b * c; uint64_t h = (uint64_t)d * f;
    printf("%lld %llu\n", g, h);
    printf("%d %u %d %u\n", a + b, (unsigned)(a + b), c + d, (unsigned)(e + f));
    printf("%lld %lld %llu\n", (int64_t)e * 3, (int64_t)f * -2, (uint64_t)e);
    int32_t t = (int32_t)(uint8_t)a + (int16_t)d;
    printf("%d %d %d\n", t, (int8_t)(c >> 4), (uint16_t)(e >> 8));
    return (uint8_t)(a ^ b);
}
