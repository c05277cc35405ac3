/* exp, exp2, expm1 and the dd exponential kernel that pow and the hyperbolic functions
 * use.
 *
 * x = (64 e + j) ln2/64 + r with |r| <= ln2/128, so exp(x) = 2^e * 2^(j/64) * exp(r);
 * 2^(j/64) comes from a dd table, exp(r) - 1 from its Taylor series (the terms past r^7
 * are below 2^-75), everything in dd. */
#include "math_impl.h"

/* ln2/64 split so that k * LN2_64_HI is exact for |k| < 2^20 */
static const double LN2_64_HI = 0x1.62e42fefa0000p-7;
static const double LN2_64_LO = 0x1.cf79abc9e3b3ap-46;    /* ln2/64 - LN2_64_HI, rounded */
static const double INV_LN2_64 = 0x1.71547652b82fep+6;     /* 64 / ln2 */

dd_t __hsx_exp_dd(dd_t x, int *e) {
    double kd = x.hi * INV_LN2_64;
    kd = kd < 0 ? -(double)(long long)(0.5 - kd) : (double)(long long)(kd + 0.5);
    int k = (int)kd;
    /* r = x - k ln2/64, in dd (the first subtraction is exact) */
    dd_t r = two_sum(x.hi - kd * LN2_64_HI, x.lo - kd * LN2_64_LO);
    /* exp(r) - 1 = r + r^2/2 + r^3 (1/6 + r/24 + ...) */
    double t = r.hi;
    double tail = t * t * t * (1.0 / 6 + t * (1.0 / 24 + t * (1.0 / 120 + t * (1.0 / 720 +
                  t * (1.0 / 5040)))));
    dd_t sq = two_prod(t, t);
    dd_t em1 = fast_two_sum(t, 0.5 * sq.hi);
    em1 = fast_two_sum(em1.hi, em1.lo + r.lo + 0.5 * sq.lo + t * r.lo + tail);
    int j = k & 63;
    *e = (k - j) / 64;
    dd_t tj = dd_from(__hsx_exp2_table[j]);
    /* tj (1 + em1) */
    dd_t prod = dd_mul(tj, em1);
    dd_t s = fast_two_sum(tj.hi, prod.hi);
    return fast_two_sum(s.hi, s.lo + prod.lo + tj.lo);
}

/* (y.hi + y.lo) * 2^e rounded once, y in [0.98, 2) (as __hsx_exp_dd returns it). */
static double scale(dd_t y, int e) {
    if (e > -1022 || (e == -1022 && y.hi >= 1)) {
        if (e > 1023)                          /* y * 2^1023 * 2 */
            return (y.hi + y.lo) * pow2(1023) * 2;
        return (y.hi + y.lo) * pow2(e);
    }
    if (e < -1076)                             /* below half the smallest subnormal */
        return 0.0;
    /* a subnormal result: round y to the bits 2^e leaves it (those of big + y: big's ulp
     * is the result's ulp, 2^-1074, divided by 2^e), then scale exactly */
    double big = pow2(-1022 - e);
    dd_t t = two_sum(big, y.hi);
    double rounded = t.hi + (t.lo + y.lo) - big;
    return rounded * pow2(e + 1022) * 0x1p-1022;
}

/* (y.hi + y.lo) * 2^e rounded once (into the subnormals too), y > 0. */
double __hsx_scale_round(dd_t y, int e) {
    int k;
    frexp(y.hi, &k);                           /* y.hi in [2^(k-1), 2^k): make it [1, 2) */
    y = dd(ldexp(y.hi, 1 - k), ldexp(y.lo, 1 - k));
    e += k - 1;
    return scale(y, e);
}

double __hsx_exp_round(dd_t x) {
    if (x.hi > 709.782712893384)
        return __hsx_math_range(INFINITY);
    if (x.hi < -745.1332191019412)
        return __hsx_math_range(0.0);
    int e;
    dd_t y = __hsx_exp_dd(x, &e);
    double r = scale(y, e);
    if (isinf(r) || r == 0)
        errno = ERANGE;
    return r;
}

double exp(double x) {
    if (isnan(x))
        return x + x;
    if (fabs(x) < 0x1p-54)
        return 1.0 + x;
    return __hsx_exp_round(dd(x, 0));
}

double exp2(double x) {
    if (isnan(x))
        return x + x;
    if (x >= 1024)
        return __hsx_math_range(INFINITY);
    if (x < -1080)
        return __hsx_math_range(0.0);
    if (x == (double)(int)x)                   /* exact powers of two */
        return ldexp(1.0, (int)x);
    return __hsx_exp_round(dd_mul_d(dd_from(__hsx_ln2), x));
}

double expm1(double x) {
    if (isnan(x))
        return x + x;
    if (x > 709.782712893384)
        return __hsx_math_range(INFINITY);
    if (x < -40)
        return -1.0;
    if (fabs(x) < 0x1p-54)
        return x;
    int e;
    dd_t y = __hsx_exp_dd(dd(x, 0), &e);
    if (e > 1000)                              /* the -1 is lost: exp(x) */
        return scale(y, e);
    y = dd(ldexp(y.hi, e), ldexp(y.lo, e));
    dd_t r = dd_add_d(y, -1.0);
    return r.hi + r.lo;
}

float expf(float x) { return (float)exp(x); }
float exp2f(float x) { return (float)exp2(x); }
float expm1f(float x) { return (float)expm1(x); }
