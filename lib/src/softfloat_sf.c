/* Single-precision soft float (the routines the compiler calls for `float`). */
#include <stdint.h>

#define REP uint32_t
#define SIG 23
#define EXPB 8
#define FN(name) sf_##name
#define WIDE_MUL(a, b, hi, lo) do { uint64_t p_ = (uint64_t)(a) * (b); \
    hi = (uint32_t)(p_ >> 32); lo = (uint32_t)p_; } while (0)
#include "fp_impl.h"

typedef union { float f; uint32_t u; } fbits;

static float F(uint32_t u) { fbits x; x.u = u; return x.f; }
static uint32_t U(float f) { fbits x; x.f = f; return x.u; }

float __addsf3(float a, float b) { return F(sf_add(U(a), U(b))); }
float __subsf3(float a, float b) { return F(sf_add(U(a), U(b) ^ 0x80000000u)); }
float __mulsf3(float a, float b) { return F(sf_mul(U(a), U(b))); }
float __divsf3(float a, float b) { return F(sf_div(U(a), U(b))); }
int __hsx_cmpsf2(float a, float b) { return sf_cmp(U(a), U(b)); }

float __floatsisf(int32_t v) {
    return F(sf_from_u64(v < 0 ? 0x80000000u : 0, v < 0 ? 0 - (uint64_t)(int64_t)v : (uint64_t)v));
}
float __floatunsisf(uint32_t v) { return F(sf_from_u64(0, v)); }
float __floatdisf(int64_t v) {
    return F(sf_from_u64(v < 0 ? 0x80000000u : 0, v < 0 ? 0 - (uint64_t)v : (uint64_t)v));
}
float __floatundisf(uint64_t v) { return F(sf_from_u64(0, v)); }

/* Out-of-range conversions give the x86 "integer indefinite" values, like native code. */
int32_t __fixsfsi(float a) {
    int ok;
    uint32_t u = U(a);
    uint64_t m = sf_to_u64(u, 31, &ok);
    if (!ok)
        return (int32_t)0x80000000u;
    return (u >> 31) ? (int32_t)(0 - (uint32_t)m) : (int32_t)m;
}
uint32_t __fixunssfsi(float a) {
    int ok;
    uint32_t u = U(a);
    if (u >> 31)
        return (uint32_t)__fixsfsi(a);
    uint64_t m = sf_to_u64(u, 32, &ok);
    return ok ? (uint32_t)m : 0;
}
int64_t __fixsfdi(float a) {
    int ok;
    uint32_t u = U(a);
    uint64_t m = sf_to_u64(u, 63, &ok);
    if (!ok)
        return (int64_t)0x8000000000000000ull;
    return (u >> 31) ? (int64_t)(0 - m) : (int64_t)m;
}
uint64_t __fixunssfdi(float a) {
    int ok;
    uint32_t u = U(a);
    if (u >> 31)
        return (uint64_t)__fixsfdi(a);
    uint64_t m = sf_to_u64(u, 64, &ok);
    return ok ? m : 0;
}

/* binary16 <-> binary32 (__fp16 and _Float16 storage). */
float __extendhfsf2(uint16_t h) {
    uint32_t sign = (uint32_t)(h & 0x8000) << 16;
    int exp = (h >> 10) & 0x1F;
    uint32_t sig = h & 0x3FF;
    if (exp == 0x1F)
        return F(sign | 0x7F800000u | (sig << 13));
    if (exp == 0) {
        if (sig == 0)
            return F(sign);
        exp = 1;
        while (!(sig & 0x400)) {
            sig <<= 1;
            exp--;
        }
        sig &= 0x3FF;
    }
    return F(sign | ((uint32_t)(exp - 15 + 127) << 23) | (sig << 13));
}

uint16_t __truncsfhf2(float f) {
    uint32_t u = U(f);
    uint32_t sign = (u >> 16) & 0x8000;
    uint32_t abs = u & 0x7FFFFFFFu;
    if (abs > 0x7F800000u)
        return (uint16_t)(sign | 0x7E00);
    if (abs >= 0x477FF000u)                      /* rounds to infinity */
        return (uint16_t)(sign | 0x7C00);
    int exp = (int)(abs >> 23) - 127 + 15;
    uint32_t sig = (abs & 0x7FFFFF) | 0x800000;
    if (abs < 0x33000000u)                       /* below half the smallest subnormal */
        return (uint16_t)sign;
    int shift = 13;
    if (exp <= 0) {
        shift += 1 - exp;
        exp = 0;
    }
    uint32_t kept = sig >> shift;
    uint32_t rest = sig & ((1u << shift) - 1);
    uint32_t half = 1u << (shift - 1);
    if (rest > half || (rest == half && (kept & 1)))
        kept++;
    if (exp == 0)
        return (uint16_t)(sign | kept);
    return (uint16_t)(sign + ((uint32_t)exp << 10) + (kept - 0x400));
}
