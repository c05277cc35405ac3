/* Double-precision soft float (the routines the compiler calls for `double`). */
#include <stdint.h>

#define REP uint64_t
#define SIG 52
#define EXPB 11
#define FN(name) df_##name

/* 64 x 64 -> 128-bit product from 32-bit pieces. */
static void wide_mul(uint64_t a, uint64_t b, uint64_t *hi, uint64_t *lo) {
    uint64_t a0 = (uint32_t)a, a1 = a >> 32, b0 = (uint32_t)b, b1 = b >> 32;
    uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    uint64_t mid = (p00 >> 32) + (uint32_t)p01 + (uint32_t)p10;
    *lo = (mid << 32) | (uint32_t)p00;
    *hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
}
#define WIDE_MUL(a, b, hi, lo) wide_mul(a, b, &hi, &lo)
#include "fp_impl.h"

typedef union { double d; uint64_t u; } dbits;
typedef union { float f; uint32_t u; } fbits;

static double D(uint64_t u) { dbits x; x.u = u; return x.d; }
static uint64_t U(double d) { dbits x; x.d = d; return x.u; }

double __adddf3(double a, double b) { return D(df_add(U(a), U(b))); }
double __subdf3(double a, double b) { return D(df_add(U(a), U(b) ^ 0x8000000000000000ull)); }
double __muldf3(double a, double b) { return D(df_mul(U(a), U(b))); }
double __divdf3(double a, double b) { return D(df_div(U(a), U(b))); }
int __hsx_cmpdf2(double a, double b) { return df_cmp(U(a), U(b)); }

double __floatsidf(int32_t v) {
    return D(df_from_u64(v < 0 ? 0x8000000000000000ull : 0,
                         v < 0 ? 0 - (uint64_t)(int64_t)v : (uint64_t)v));
}
double __floatunsidf(uint32_t v) { return D(df_from_u64(0, v)); }
double __floatdidf(int64_t v) {
    return D(df_from_u64(v < 0 ? 0x8000000000000000ull : 0, v < 0 ? 0 - (uint64_t)v : (uint64_t)v));
}
double __floatundidf(uint64_t v) { return D(df_from_u64(0, v)); }

int32_t __fixdfsi(double a) {
    int ok;
    uint64_t u = U(a);
    uint64_t m = df_to_u64(u, 31, &ok);
    if (!ok)
        return (int32_t)0x80000000u;
    return (u >> 63) ? (int32_t)(0 - (uint32_t)m) : (int32_t)m;
}
uint32_t __fixunsdfsi(double a) {
    int ok;
    uint64_t u = U(a);
    if (u >> 63)
        return (uint32_t)__fixdfsi(a);
    uint64_t m = df_to_u64(u, 32, &ok);
    return ok ? (uint32_t)m : 0;
}
int64_t __fixdfdi(double a) {
    int ok;
    uint64_t u = U(a);
    uint64_t m = df_to_u64(u, 63, &ok);
    if (!ok)
        return (int64_t)0x8000000000000000ull;
    return (u >> 63) ? (int64_t)(0 - m) : (int64_t)m;
}
uint64_t __fixunsdfdi(double a) {
    int ok;
    uint64_t u = U(a);
    if (u >> 63)
        return (uint64_t)__fixdfdi(a);
    uint64_t m = df_to_u64(u, 64, &ok);
    return ok ? m : 0;
}

double __extendsfdf2(float f) {
    fbits x;
    x.f = f;
    uint64_t sign = (uint64_t)(x.u >> 31) << 63;
    int exp = (x.u >> 23) & 0xFF;
    uint64_t sig = x.u & 0x7FFFFF;
    if (exp == 0xFF)
        return D(sign | 0x7FF0000000000000ull | (sig << 29) | (sig ? 1ull << 51 : 0));
    if (exp == 0) {
        if (sig == 0)
            return D(sign);
        exp = 1;
        while (!(sig & 0x800000)) {
            sig <<= 1;
            exp--;
        }
        sig &= 0x7FFFFF;
    }
    return D(sign | ((uint64_t)(exp - 127 + 1023) << 52) | (sig << 29));
}

/* double -> float: the float routines' rounding on a 64-bit significand. */
float __truncdfsf2(double d) {
    uint64_t u = U(d);
    uint32_t sign = (uint32_t)(u >> 32) & 0x80000000u;
    uint64_t abs = u & 0x7FFFFFFFFFFFFFFFull;
    fbits r;
    if (abs > 0x7FF0000000000000ull) {
        r.u = sign | 0x7FC00000u;
        return r.f;
    }
    if (abs == 0x7FF0000000000000ull) {
        r.u = sign | 0x7F800000u;
        return r.f;
    }
    int exp = (int)(abs >> 52) - 1023 + 127;
    if (exp >= 0xFF) {
        r.u = sign | 0x7F800000u;
        return r.f;
    }
    if (exp < -30) {                              /* far below the smallest subnormal */
        r.u = sign;
        return r.f;
    }
    uint64_t sig = (abs & 0xFFFFFFFFFFFFFull) | (abs ? 1ull << 52 : 0);
    if ((abs >> 52) == 0) {                       /* double subnormal: rounds to 0 */
        r.u = sign;
        return r.f;
    }
    int shift = 29;
    if (exp <= 0) {
        shift += 1 - exp;
        exp = 0;
    }
    uint64_t kept = sig >> shift;
    uint64_t rest = sig & ((1ull << shift) - 1);
    uint64_t half = 1ull << (shift - 1);
    if (rest > half || (rest == half && (kept & 1)))
        kept++;
    if (exp == 0)
        r.u = sign | (uint32_t)kept;
    else
        r.u = sign + ((uint32_t)exp << 23) + ((uint32_t)kept - 0x800000u);
    return r.f;
}

uint16_t __truncdfhf2(double d) {
    /* Through float is exact enough except in rare double-rounding cases. */
    extern uint16_t __truncsfhf2(float);
    return __truncsfhf2(__truncdfsf2(d));
}
