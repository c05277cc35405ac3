/* log, log2, log10, log1p and the dd logarithm pow and the inverse hyperbolic functions
 * use.
 *
 * x = 2^k m with m in [0.75, 1.5); m = c (1 + z) with c = i/128 the nearest table point
 * (1/c and -log(1/c) from the table: z = m (1/c) - 1 exactly in dd), so
 * log x = k ln2 - log(1/c) + log1p(z), |z| < 1/190, log1p(z) by its series in dd. */
#include "math_impl.h"

dd_t __hsx_log_dd(double x) {
    int k = 0;
    if (exponent_field(x) == 0) {              /* subnormal: scale up */
        x *= 0x1p54;
        k = -54;
    }
    uint64_t u = asuint64(x);
    k += (int)((u >> 52) & 0x7FF) - 1023;
    double m = asdouble((u & ((1ull << 52) - 1)) | (1023ull << 52));
    if (m >= 1.5) {
        m *= 0.5;
        k++;
    }
    int i = (int)(m * 128 + 0.5);
    const double *t = __hsx_log_table[i - 96];
    dd_t p = two_prod(m, t[0]);
    dd_t zz = fast_two_sum(p.hi - 1.0, p.lo);  /* p.hi - 1 is exact */
    double z = zz.hi;
    dd_t z2 = two_prod(z, z);
    double tail = z * z2.hi * (1.0 / 3 - z * (1.0 / 4 - z * (1.0 / 5 - z * (1.0 / 6 -
                  z * (1.0 / 7 - z * (1.0 / 8 - z * (1.0 / 9 - z / 10)))))));
    dd_t s = fast_two_sum(z, -0.5 * z2.hi);
    s = fast_two_sum(s.hi, s.lo - 0.5 * z2.lo + tail + zz.lo * (1 - z));
    dd_t r = dd_add(s, dd(t[1], t[2]));
    if (k)
        r = dd_add(dd_mul_d(dd_from(__hsx_ln2), (double)k), r);
    return r;
}

/* NaN, domain or pole results for a log of x; 0 when x is an ordinary positive number. */
static int log_special(double x, double *out) {
    if (isnan(x)) {
        *out = x + x;
        return 1;
    }
    if (x < 0) {
        *out = __hsx_math_domain();
        return 1;
    }
    if (x == 0) {
        *out = __hsx_math_range(-INFINITY);
        return 1;
    }
    if (isinf(x)) {
        *out = x;
        return 1;
    }
    return 0;
}

double log(double x) {
    double out;
    if (log_special(x, &out))
        return out;
    dd_t r = __hsx_log_dd(x);
    return r.hi + r.lo;
}

double log2(double x) {
    double out;
    if (log_special(x, &out))
        return out;
    uint64_t u = asuint64(x);
    if ((u & ((1ull << 52) - 1)) == 0 && exponent_field(x) != 0)
        return (double)(exponent_field(x) - 1023);         /* powers of two: exact */
    dd_t r = dd_mul(__hsx_log_dd(x), dd_from(__hsx_inv_ln2));
    return r.hi + r.lo;
}

double log10(double x) {
    double out;
    if (log_special(x, &out))
        return out;
    dd_t r = dd_mul(__hsx_log_dd(x), dd_from(__hsx_inv_ln10));
    return r.hi + r.lo;
}

double log1p(double x) {
    if (isnan(x))
        return x + x;
    if (x <= -1)
        return x == -1 ? __hsx_math_range(-INFINITY) : __hsx_math_domain();
    if (isinf(x))
        return x;
    if (fabs(x) < 0x1p-54)
        return x;
    dd_t w = two_sum(1.0, x);
    dd_t r = dd_add_d(__hsx_log_dd(w.hi), w.lo / w.hi);
    return r.hi + r.lo;
}

float logf(float x) { return (float)log(x); }
float log2f(float x) { return (float)log2(x); }
float log10f(float x) { return (float)log10(x); }
float log1pf(float x) { return (float)log1p(x); }
