/* sqrt (correctly rounded, bit by bit), cbrt and hypot, and the dd square root the other
 * kernels use. */
#include "math_impl.h"

double sqrt(double x) {
    uint64_t u = asuint64(x);
    if (x <= 0 || !isfinite(x)) {
        if (x == 0 || (x > 0 && isinf(x)) || isnan(x))
            return x + x;                      /* +-0, +inf, NaN */
        return __hsx_math_domain();
    }
    int e = (int)(u >> 52);
    uint64_t m = u & ((1ull << 52) - 1);
    if (e == 0) {                              /* subnormal: normalise */
        e = 1;
        while (!(m >> 52)) {
            m <<= 1;
            e--;
        }
    } else {
        m |= 1ull << 52;
    }
    e -= 1023;                                 /* x = m * 2^(e - 52) */
    if (e & 1) {
        m <<= 1;                               /* make the exponent even */
        e--;
    }
    /* root = floor(sqrt(m * 2^54)): 54 bits, the last one a guard bit */
    uint64_t root = 0, rem = 0;
    for (int j = 0; j < 54; j++) {
        unsigned pair = 2 * j <= 52 ? (unsigned)(m >> (52 - 2 * j)) & 3 : 0;
        rem = (rem << 2) | pair;
        uint64_t trial = (root << 2) | 1;
        root <<= 1;
        if (rem >= trial) {
            rem -= trial;
            root |= 1;
        }
    }
    uint64_t mant = root >> 1;
    if ((root & 1) && (rem != 0 || (mant & 1)))
        mant++;
    return asdouble((mant - (1ull << 52)) + ((uint64_t)(e / 2 + 1023) << 52));
}

float sqrtf(float x) { return (float)sqrt(x); }   /* sqrt in double, then float: exact */

dd_t __hsx_sqrt_dd(dd_t a) {
    if (a.hi <= 0)
        return dd(0, 0);
    double s = sqrt(a.hi);
    dd_t sq = two_prod(s, s);
    double c = ((a.hi - sq.hi) - sq.lo + a.lo) / (2 * s);
    return fast_two_sum(s, c);
}

double cbrt(double x) {
    if (x == 0 || !isfinite(x))
        return x + x;
    double a = fabs(x);
    int scale = 0;
    if (a < 0x1p-900) {                        /* keep y^3 away from the subnormals */
        a *= 0x1p300;
        scale = -100;
    } else if (a > 0x1p900) {
        a *= 0x1p-300;
        scale = 100;
    }
    int e;
    double f = frexp(a, &e);                   /* a = f 2^e, f in [0.5, 1) */
    int k = e >= 0 ? (e + 2) / 3 : -(-e / 3);  /* ceil(e / 3) */
    f = ldexp(f, e - 3 * k);                   /* a = f 2^(3k), f in [0.125, 1) */
    double y = 0.4 + 0.6 * f;                  /* a rough cube root of f, then Newton */
    for (int i = 0; i < 6; i++)
        y -= (y * y * y - f) / (3 * y * y);
    /* one more step with y^3 exact in dd, for the last bits */
    dd_t y2 = two_prod(y, y);
    dd_t y3 = dd_add(two_prod(y2.hi, y), two_prod(y2.lo, y));
    double r = ((f - y3.hi) - y3.lo) / (3 * y2.hi);
    y = y + r;
    return copysign(ldexp(y, k + scale), x);
}

float cbrtf(float x) { return (float)cbrt(x); }

double hypot(double x, double y) {
    if (isinf(x) || isinf(y))
        return INFINITY;
    if (isnan(x) || isnan(y))
        return x + y;
    x = fabs(x);
    y = fabs(y);
    if (x < y) {
        double t = x;
        x = y;
        y = t;
    }
    if (y == 0)
        return x;
    int e = exponent_field(x) - 1023;
    if (e > 450 || e < -450) {                 /* scale x to about 1, so the squares */
        int s = e == -1023 ? 1074 : -e;        /* neither overflow nor go subnormal */
        double r = ldexp(hypot(ldexp(x, s), ldexp(y, s)), -s);
        if (isinf(r))
            errno = ERANGE;
        return r;
    }
    dd_t sum = dd_add(two_prod(x, x), two_prod(y, y));
    dd_t r = __hsx_sqrt_dd(sum);
    return r.hi + r.lo;
}

float hypotf(float x, float y) {
    return (float)hypot(x, y);
}
