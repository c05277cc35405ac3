#include <stdio.h>
#include <stdint.h>
static int popcount(uint32_t x) { int n = 0; while (x) { x &= x - 1; n++; } return n; }
static uint32_t rev(uint32_t x) { uint32_t r = 0; for (int i = 0; i < 32; i++) { r = (r << 1) | (x & 1); x >>= 1; } return r; }
static int clz(uint32_t x) { int n = 0; if (!x) return 32; while (!(x & 0x80000000u)) { x <<= 1; n++; } return n; }
static uint32_t rotl(uint32_t x, int k) { return (x << k) | (x >> (32 - k)); }
static uint16_t bswap16(uint16_t x) { return (uint16_t)((x >> 8) | (x << 8)); }
static uint32_t bswap32(uint32_t x) { return (x >> 24) | ((x >> 8) & 0xff00) | ((x << 8) & 0xff0000) | (x << 24); }
int main(void) {
    uint32_t vals[] = {0, 1, 0x80000000u, 0xDEADBEEFu, 0x0F0F0F0Fu, 12345};
    for (int i = 0; i < 6; i++)
        printf("%d %08x %d %08x %04x %08x\n", popcount(vals[i]), rev(vals[i]), clz(vals[i]), rotl(vals[i], i * 5 + 1), bswap16((uint16_t)vals[i]), bswap32(vals[i]));
    uint64_t big = 0x0123456789ABCDEFULL;
    printf("%016llx %d\n", (big << 12) | (big >> 52), __builtin_popcountll(big));
    printf("%d %d %d\n", __builtin_clz(1u << 20), __builtin_ctz(1u << 20), __builtin_popcount(0xFFFFu));
    return popcount(0xFFu);
}
