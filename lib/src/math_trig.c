/* sin, cos, tan: argument reduction by pi/2 (Cody-Waite with pi/2 in four parts below
 * 2^20 pi/2, else with 2/pi to 1200 bits, Payne-Hanek), then Taylor kernels in dd on
 * |r| <= pi/4 (terms past x^18 are below 2^-63 of the result). */
#include "math_impl.h"

static const double PIO2_1 = 0x1.921fb54400000p+0;    /* pi/2 in 33-bit parts */
static const double PIO2_2 = 0x1.0b4611a600000p-34;
static const double PIO2_3 = 0x1.3198a2e000000p-69;
static const double PIO2_4 = 0x1.b839a252049c1p-104;
static const double TWO_OVER_PI = 0x1.45f306dc9c883p-1;
static const double PI_4 = 0x1.921fb54442d18p-1;

/* -- Payne-Hanek: x * 2/pi mod 4 from the bits of 2/pi that matter ------------------- */

#define LIMBS 8                                /* 256-bit product: 8 x 32 bits */

/* Bit `n` of a little-endian limb array (0 beyond it). */
static unsigned bit_at(const uint32_t *p, int n) {
    return n < 0 || n >= 32 * LIMBS ? 0 : (p[n / 32] >> (n % 32)) & 1;
}

/* bits [lo, lo + count) as an integer, count <= 53. */
static uint64_t bits(const uint32_t *p, int lo, int count) {
    uint64_t v = 0;
    for (int k = count - 1; k >= 0; k--)
        v = v << 1 | bit_at(p, lo + k);
    return v;
}

static int reduce_large(double x, dd_t *r) {
    uint64_t u = asuint64(x);
    int e = (int)((u >> 52) & 0x7FF) - 1075;   /* |x| = m 2^e, m a 53-bit integer */
    uint64_t m = (u & ((1ull << 52) - 1)) | (1ull << 52);
    /* chunks of 24 bits before i0 give multiples of 4: leave them out */
    int i0 = e >= 2 ? (e - 2) / 24 : 0;
    /* V = the next 8 chunks as a 192-bit integer, 6 limbs */
    uint32_t v[6] = { 0 };
    for (int j = 0; j < 8; j++) {
        unsigned chunk = __hsx_two_over_pi[i0 + j];
        int pos = 24 * (7 - j);                /* bit position of this chunk in V */
        v[pos / 32] |= chunk << (pos % 32);
        if (pos % 32 > 8)
            v[pos / 32 + 1] |= chunk >> (32 - pos % 32);
    }
    /* P = m * V */
    uint32_t p[LIMBS] = { 0 };
    uint32_t mw[2] = { (uint32_t)m, (uint32_t)(m >> 32) };
    for (int a = 0; a < 2; a++) {
        uint64_t carry = 0;
        for (int b = 0; b < 6; b++) {
            uint64_t t = (uint64_t)mw[a] * v[b] + p[a + b] + carry;
            p[a + b] = (uint32_t)t;
            carry = t >> 32;
        }
        for (int k = a + 6; carry && k < LIMBS; k++) {
            uint64_t t = (uint64_t)p[k] + carry;
            p[k] = (uint32_t)t;
            carry = t >> 32;
        }
    }
    /* x 2/pi = P 2^(e - 24 i0 - 192) mod 4: sh fraction bits */
    int sh = 24 * i0 + 192 - e;
    int k = (int)(bit_at(p, sh) | bit_at(p, sh + 1) << 1);
    int negative = bit_at(p, sh - 1);          /* fraction >= 1/2: take fraction - 1 */
    if (negative) {
        k = (k + 1) & 3;
        /* fraction bits := 2^sh - fraction (two's complement below bit sh) */
        uint32_t borrow = 0;
        for (int n = 0; n < LIMBS && 32 * n < sh; n++) {
            uint32_t mask = 32 * (n + 1) <= sh ? 0xFFFFFFFFu : (1u << (sh % 32)) - 1;
            uint64_t t = (uint64_t)0 - (p[n] & mask) - borrow;
            borrow = (uint32_t)(t >> 32) & 1;
            p[n] = (p[n] & ~mask) | ((uint32_t)t & mask);
        }
    }
    int lead = sh - 1;
    while (lead >= 0 && !bit_at(p, lead))
        lead--;
    if (lead < 0) {
        *r = dd(0, 0);
        return k;
    }
    double a = (double)bits(p, lead - 52, 53), b = (double)bits(p, lead - 105, 53);
    dd_t f = fast_two_sum(ldexp(a, lead - 52 - sh), ldexp(b, lead - 105 - sh));
    *r = dd_mul(f, dd_from(__hsx_pio2));
    if (negative)
        *r = dd_neg(*r);
    return k;
}

int __hsx_rem_pio2(double x, dd_t *r) {
    double a = fabs(x);
    if (a <= PI_4) {
        *r = dd(x, 0);
        return 0;
    }
    int k;
    if (a < 0x1p20 * PIO2_1) {
        double kd = x * TWO_OVER_PI;
        kd = kd < 0 ? -(double)(long long)(0.5 - kd) : (double)(long long)(kd + 0.5);
        dd_t t = two_sum(x - kd * PIO2_1, -kd * PIO2_2);
        t = dd_add_d(t, -kd * PIO2_3);
        t.lo -= kd * PIO2_4;
        *r = fast_two_sum(t.hi, t.lo);
        k = (int)((long long)kd & 3);
    } else {
        k = reduce_large(a, r);
        if (x < 0) {
            *r = dd_neg(*r);
            k = -k & 3;
        }
    }
    return k;
}

/* sin r = x - x^3/6 + x^5 (1/120 - ...), x = r.hi: the x^3 term in dd, the rest (below
 * 1/400 of x) in double; plus r.lo cos x (to x^4). */
dd_t __hsx_sin_dd(dd_t r) {
    double x = r.hi, z = x * x;
    dd_t x3 = dd_mul_d(two_prod(x, x), x);
    dd_t t3 = dd_div(x3, dd(6.0, 0));
    double rest = x * z * z * (1.0 / 120 + z * (-1.0 / 5040 + z * (1.0 / 362880 +
                  z * (-1.0 / 39916800 + z * (1.0 / 6227020800.0 + z * (-1.0 / 1307674368000.0 +
                  z * (1.0 / 355687428096000.0)))))));
    dd_t s = fast_two_sum(x, -t3.hi);
    return fast_two_sum(s.hi, s.lo - t3.lo + rest + r.lo * (1 - 0.5 * z + z * z / 24));
}

/* cos r = 1 - x^2/2 + x^4/24 - x^6 (1/720 - ...), x = r.hi: the first three terms in dd;
 * minus r.lo sin x (to x^3). */
dd_t __hsx_cos_dd(dd_t r) {
    double x = r.hi;
    dd_t x2 = two_prod(x, x);
    double z = x2.hi;
    dd_t t4 = dd_div(dd_mul(x2, x2), dd(24.0, 0));
    double rest = z * z * z * (-1.0 / 720 + z * (1.0 / 40320 + z * (-1.0 / 3628800 +
                  z * (1.0 / 479001600 + z * (-1.0 / 87178291200.0 + z * (1.0 / 20922789888000.0 +
                  z * (-1.0 / 6402373705728000.0)))))));
    dd_t w = two_sum(1.0, -0.5 * z);
    dd_t c = dd_add(w, t4);
    return fast_two_sum(c.hi, c.lo - 0.5 * x2.lo + rest - r.lo * (x - x * z / 6));
}

double sin(double x) {
    if (!isfinite(x))
        return isnan(x) ? x + x : __hsx_math_domain();
    if (fabs(x) < 0x1p-26)
        return x;
    dd_t r, s;
    int k = __hsx_rem_pio2(x, &r);
    switch (k) {
    case 0: s = __hsx_sin_dd(r); break;
    case 1: s = __hsx_cos_dd(r); break;
    case 2: s = dd_neg(__hsx_sin_dd(r)); break;
    default: s = dd_neg(__hsx_cos_dd(r)); break;
    }
    return s.hi + s.lo;
}

double cos(double x) {
    if (!isfinite(x))
        return isnan(x) ? x + x : __hsx_math_domain();
    if (fabs(x) < 0x1p-27)
        return 1.0;
    dd_t r, c;
    int k = __hsx_rem_pio2(x, &r);
    switch (k) {
    case 0: c = __hsx_cos_dd(r); break;
    case 1: c = dd_neg(__hsx_sin_dd(r)); break;
    case 2: c = dd_neg(__hsx_cos_dd(r)); break;
    default: c = __hsx_sin_dd(r); break;
    }
    return c.hi + c.lo;
}

double tan(double x) {
    if (!isfinite(x))
        return isnan(x) ? x + x : __hsx_math_domain();
    if (fabs(x) < 0x1p-27)
        return x;
    dd_t r;
    int k = __hsx_rem_pio2(x, &r);
    dd_t s = __hsx_sin_dd(r), c = __hsx_cos_dd(r);
    dd_t t = k & 1 ? dd_neg(dd_div(c, s)) : dd_div(s, c);
    return t.hi + t.lo;
}

float sinf(float x) { return (float)sin(x); }
float cosf(float x) { return (float)cos(x); }
float tanf(float x) { return (float)tan(x); }
