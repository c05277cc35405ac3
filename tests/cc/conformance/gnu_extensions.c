/* GNU C extensions that freestanding code uses: packed structs (unaligned fields),
 * case ranges, statement expressions, typeof, zero-length arrays, overflow-checking
 * builtins on 32 and 64 bits, bit builtins, __builtin_expect/constant_p. */
#include <stdio.h>
#include <stdint.h>
#include <string.h>

struct __attribute__((packed)) pk { char c; int i; short s; long long ll; double d; };
struct __attribute__((packed)) rec { uint8_t a; uint32_t b; };
struct with_tail { int n; int tail[0]; };

static int classify(int x) {
    switch (x) {
    case 1 ... 5: return 1;
    case 6 ... 10: return 2;
    case 'a' ... 'z': return 3;
    default: return 0;
    }
}

#define MAX(a, b) ({ __typeof__(a) _a = (a); __typeof__(b) _b = (b); _a > _b ? _a : _b; })

int main(void) {
    struct pk p = { 'x', 0x12345678, -2, 0x1122334455667788LL, 2.5 };
    printf("%d %c %x %d %llx %g\n", (int)sizeof p, p.c, p.i, p.s, p.ll, p.d);
    p.i += 0x10101010;
    p.ll ^= 0xFF;
    p.d *= 2;
    p.s--;
    printf("%x %llx %g %d\n", p.i, p.ll, p.d, p.s);
    struct rec recs[3];
    for (int k = 0; k < 3; k++) {
        recs[k].a = (uint8_t)k;
        recs[k].b = 0xA0000000u + (unsigned)k;
    }
    unsigned t = 0;
    for (int k = 0; k < 3; k++)
        t += recs[k].b + recs[k].a;
    printf("%u %d %d\n", t, (int)sizeof recs, (int)sizeof(struct with_tail));
    char buf[16] = { 0 };
    uint32_t v = 0xCAFEBABE, w;
    memcpy(buf + 1, &v, 4);
    memcpy(&w, buf + 1, 4);
    printf("%x\n", w);
    int y = ({ int q = 5; q * q; });
    __typeof__(y) z = y + 1;
    printf("%d %d %d %d %d %d\n", y, z, classify(3), classify(8), classify('q'), MAX(3, 9));
    int r;
    int o1 = __builtin_add_overflow(0x7fffffff, 1, &r);
    printf("%d %d\n", o1, r);
    int o2 = __builtin_sub_overflow(-0x7fffffff, 2, &r);
    printf("%d %d\n", o2, r);
    long long r64;
    int o3 = __builtin_mul_overflow(1LL << 40, 1LL << 30, &r64);
    printf("%d %lld\n", o3, r64);
    unsigned long long u64;
    int o4 = __builtin_add_overflow(~0ULL, 2ULL, &u64);
    printf("%d %llu\n", o4, u64);
    long long vs[] = { 0, 1, -1, 3, 1LL << 31, -(1LL << 31), 1LL << 32, 3037000499LL,
                       3037000500LL, -3037000500LL, INT64_MAX, INT64_MIN, 0x100000001LL };
    int n = (int)(sizeof vs / sizeof vs[0]);
    unsigned h = 0;
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++) {
            long long sr;
            unsigned long long ur;
            int a = __builtin_mul_overflow(vs[i], vs[j], &sr);
            int b = __builtin_mul_overflow((unsigned long long)vs[i], (unsigned long long)vs[j],
                                           &ur);
            int c = __builtin_add_overflow(vs[i], vs[j], &sr);
            int d = __builtin_sub_overflow(vs[i], vs[j], &sr);
            int e = __builtin_add_overflow((unsigned long long)vs[i], (unsigned long long)vs[j],
                                           &ur);
            int f = __builtin_sub_overflow((unsigned long long)vs[i], (unsigned long long)vs[j],
                                           &ur);
            h = h * 131 + (unsigned)(a | b << 1 | c << 2 | d << 3 | e << 4 | f << 5) +
                (unsigned)sr + (unsigned)(ur >> 7);
        }
    }
    printf("%08x\n", h);
    printf("%d %d %d %d %d\n", __builtin_popcount(0xF0F0), __builtin_clz(1), __builtin_ctz(8),
           __builtin_popcountll(~0ULL), __builtin_clzll(1ULL << 40));
    printf("%x %llx %d\n", __builtin_bswap32(0x11223344),
           (unsigned long long)__builtin_bswap64(0x1122334455667788ULL),
           __builtin_ffs(0x50));
    printf("%d %d %d\n", __builtin_types_compatible_p(int, int), __builtin_constant_p(5),
           (int)__builtin_expect(y == 25, 1));
    return 0;
}
