/* Rotates and funnel shifts of 64-bit values by variable amounts (xoshiro256**),
 * Duff's device, large structs by value, __builtin_frame_address/return_address and
 * other GNU builtins. */
#include <stdio.h>
#include <stdint.h>
#include <string.h>
#include <stddef.h>
static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
static inline uint32_t rotl32(uint32_t x, unsigned k) { return (x << (k & 31)) | (x >> ((32 - k) & 31)); }
static uint64_t s[4] = {1, 2, 3, 4};
static uint64_t next(void) {
    const uint64_t result = rotl(s[1] * 5, 7) * 9;
    const uint64_t t = s[1] << 17;
    s[2] ^= s[0]; s[3] ^= s[1]; s[1] ^= s[2]; s[0] ^= s[3]; s[2] ^= t; s[3] = rotl(s[3], 45);
    return result;
}
static void duff(char *to, const char *from, int count) {
    int n = (count + 7) / 8;
    switch (count % 8) {
    case 0: do { *to++ = *from++;
    case 7: *to++ = *from++;
    case 6: *to++ = *from++;
    case 5: *to++ = *from++;
    case 4: *to++ = *from++;
    case 3: *to++ = *from++;
    case 2: *to++ = *from++;
    case 1: *to++ = *from++;
            } while (--n > 0);
    }
}
struct big { char name[40]; int v[10]; double d; };
static struct big make(int k) { struct big b; memset(&b, 0, sizeof b); snprintf(b.name, sizeof b.name, "item-%d", k); for (int i = 0; i < 10; i++) b.v[i] = k * i; b.d = k / 4.0; return b; }
static int sum_big(struct big b) { int t = 0; for (int i = 0; i < 10; i++) t += b.v[i]; return t + (int)strlen(b.name); }
__attribute__((noinline)) static int depth_check(void) {
    void *f0 = __builtin_frame_address(0), *f1 = __builtin_frame_address(1);
    void *r0 = __builtin_return_address(0);
    return (f0 != 0) + (f1 != 0) * 2 + (r0 != 0) * 4 + ((char *)f1 > (char *)f0) * 8;
}
int main(void) {
    printf("frames %d\n", depth_check());
    for (int i = 0; i < 5; i++) printf("%016llx\n", (unsigned long long)next());
    volatile int amt = 13; uint64_t x = 0x0123456789abcdefULL;
    for (int k = 1; k < 64; k += 9) printf("%llx ", (unsigned long long)rotl(x, k)); printf("\n");
    printf("%llx %x\n", (unsigned long long)rotl(x, amt), rotl32(0x80000001u, amt));
    uint64_t v = x; unsigned sh = amt; printf("%llx %llx %llx\n", (unsigned long long)(v << sh), (unsigned long long)(v >> sh), (unsigned long long)((int64_t)v >> sh));
    char dst[40] = {0}; duff(dst, "the quick brown fox jumps", 25); printf("%s\n", dst);
    struct big b = make(7), c; c = b; c.v[9] = 1000; printf("%s %d %d %g\n", c.name, sum_big(b), sum_big(c), c.d);
    printf("%d %d\n", __builtin_types_compatible_p(int, const int), __builtin_choose_expr(1, 10, 20.0));
    printf("%d %d\n", (int)__builtin_offsetof(struct big, d), __builtin_clrsb(-1));
#ifdef __clang__
    printf("%x %x\n", __builtin_bitreverse32(1), __builtin_rotateleft32(0x80000001u, 4));
    printf("%llx\n", (unsigned long long)__builtin_rotateright64(x, amt));
#else
    printf("%x %x\n", 0x80000000u, 0x18u);
    printf("%llx\n", (unsigned long long)((x >> 13) | (x << 51)));
#endif
    printf("%d\n", __builtin_frame_address(0) != 0);
    int arr[10]; printf("%zu\n", __builtin_object_size(arr, 0));
    long long r; int o1 = __builtin_saddll_overflow(0x7fffffffffffffffLL, 1, &r); printf("%d %lld\n", o1, r);
    unsigned char u8; int o2 = __builtin_sub_overflow(5, 10, &u8); printf("%d %d\n", o2, u8);
    char buf[16]; __builtin_memcpy(buf, "inline!", 8); printf("%s\n", buf);
    switch ((char)amt) { case 'a' ... 'z': puts("lower"); break; case 13: puts("thirteen"); break; default: puts("other"); }
    return 0;
}
