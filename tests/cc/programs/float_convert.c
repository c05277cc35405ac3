#include <stdio.h>
#include <stdint.h>
int main(void) {
    volatile int32_t i = -123456789;
    volatile uint32_t u = 4000000000u;
    volatile int64_t l = -1234567890123456789LL;
    volatile uint64_t ul = 18000000000000000000ULL;
    printf("%f %f %f %f\n", (double)i, (double)u, (double)l, (double)ul);
    printf("%f %f %f %f\n", (float)i, (float)u, (float)l, (float)ul);
    volatile double d = 123456.789;
    volatile float f = -98765.4321f;
    printf("%d %u %lld %llu\n", (int32_t)d, (uint32_t)d, (int64_t)(d * 1e6), (uint64_t)(d * 1e9));
    printf("%d %lld %f %f\n", (int32_t)f, (int64_t)f, (double)f, (float)d);
    volatile double halfway = 0.5, h2 = 1.5, h3 = 2.5;
    printf("%d %d %d\n", (int)halfway, (int)h2, (int)-h3);
    float fs[] = {1e-40f, 3.4e38f, 1.17549435e-38f, 0.1f};
    for (int k = 0; k < 4; k++) printf("%.10g %.20g\n", fs[k], (double)fs[k]);
    return (int)(d / 1000);
}
