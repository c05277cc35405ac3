#include <stdio.h>
#include <stdint.h>
int main(void) {
    volatile int32_t s = -123456;
    volatile uint32_t u = 0xF0F0F0F0u;
    for (int n = 0; n < 32; n += 5)
        printf("%d: %d %u %u\n", n, s >> n, u >> n, u << n);
    volatile int64_t s64 = -12345678901234LL;
    volatile uint64_t u64 = 0xF0F0F0F0F0F0F0F0ULL;
    for (int n = 0; n < 64; n += 9)
        printf("%d: %lld %llu %llu\n", n, s64 >> n, u64 >> n, u64 << n);
    uint8_t b = 0x81;
    printf("%u %u %d\n", (uint8_t)(b << 1), b >> 1, (int8_t)b >> 1);
    uint32_t r = 0x12345678u;
    printf("%08x %08x\n", (r << 8) | (r >> 24), (r >> 8) | (r << 24));
    return 0;
}
