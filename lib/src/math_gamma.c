/* lgamma and tgamma.  For x > 0: series in x - 1 and x - 2 near the zeros of lgamma at
 * 1 and 2, Stirling's series from 10, and lgamma(x) = lgamma(x + n) - log(x (x+1) ...)
 * between; all in dd, with dd arguments, so the reflection formula for x < 0 can use
 * 1 - x exactly.  tgamma = exp(lgamma), integers up to 23 by exact products. */
#include "math_impl.h"

int signgam;

static dd_t log_of(dd_t w) { return dd_add_d(__hsx_log_dd(w.hi), w.lo / w.hi); }

/* lgamma(1 + e) or lgamma(2 + e), |e| <= 1/4: lead e + c[0] e^2 + c[1] e^3 + ... */
static dd_t near_zero(dd_t e, dd_t lead, const double *c) {
    double x = e.hi, p = 0;
    for (int k = 37; k >= 1; k--)
        p = p * x + c[k];
    dd_t r = dd_mul(lead, e);
    r = dd_add(r, dd_mul_d(two_prod(x, x), c[0]));
    return dd_add_d(r, x * x * x * p + 2 * c[0] * x * e.lo);
}

/* (x - 1/2) log x - x + log(2 pi)/2 + sum B2k / (2k (2k-1) x^(2k-1)), x >= 10. */
static dd_t stirling(dd_t x) {
    dd_t t = dd_mul(dd_add_d(x, -0.5), log_of(x));
    t = dd_add(t, dd_neg(x));
    t = dd_add(t, dd_from(__hsx_half_log_2pi));
    if (x.hi > 0x1p30)
        return t;
    double inv = 1 / x.hi, z = inv * inv, s = 0;
    for (int k = 10; k >= 0; k--)
        s = s * z + __hsx_stirling_coef[k];
    return dd_add_d(t, s * inv);
}

/* lgamma(x), x > 0 (x.lo small against x.hi). */
static dd_t lgamma_dd(dd_t x) {
    double h = x.hi;
    if (h < 0x1p-60)
        return dd_neg(log_of(x));
    if (fabs(h - 1) <= 0.25)
        return near_zero(dd_add_d(x, -1.0), dd_neg(dd_from(__hsx_euler)), __hsx_lgamma1_coef);
    if (fabs(h - 2) <= 0.25)
        return near_zero(dd_add_d(x, -2.0), dd_add_d(dd_neg(dd_from(__hsx_euler)), 1.0),
                         __hsx_lgamma2_coef);
    if (h >= 10)
        return stirling(x);
    dd_t prod = x, y = dd_add_d(x, 1.0);
    while (y.hi < 10) {
        prod = dd_mul(prod, y);
        y = dd_add_d(y, 1.0);
    }
    return dd_add(stirling(y), dd_neg(log_of(prod)));
}

dd_t __hsx_lgamma_pos(double x) { return lgamma_dd(dd(x, 0)); }

/* sin(pi x) in dd, x not an integer, |x| < 2^52. */
static dd_t sinpi(double x) {
    double y = x - 2 * round(x / 2);           /* exact: y in [-1, 1] */
    int negative = y < 0;
    y = fabs(y);
    if (y > 0.5)
        y = 1 - y;
    dd_t r = y > 0.25 ? __hsx_cos_dd(dd_mul_d(dd_from(__hsx_pi), 0.5 - y))
                      : __hsx_sin_dd(dd_mul_d(dd_from(__hsx_pi), y));
    return negative ? dd_neg(r) : r;
}

static int is_integer(double x) { return trunc(x) == x; }

double lgamma(double x) {
    signgam = 1;
    if (isnan(x))
        return x + x;
    if (isinf(x))
        return INFINITY;
    if (x == 0) {
        signgam = signbit(x) ? -1 : 1;
        return __hsx_math_range(INFINITY);
    }
    if (x < 0 && is_integer(x))
        return __hsx_math_range(INFINITY);
    if (x > 0x1p1020)
        return __hsx_math_range(INFINITY);
    dd_t r;
    if (fabs(x) < 0x1p-60) {                   /* gamma(x) = 1/x - euler + ...: -log|x| */
        signgam = x < 0 ? -1 : 1;
        r = dd_neg(__hsx_log_dd(fabs(x)));
    } else if (x > 0) {
        r = lgamma_dd(dd(x, 0));
    } else {                                   /* log(pi / |sin(pi x)|) - lgamma(1 - x) */
        dd_t s = sinpi(x);
        if (s.hi < 0) {
            signgam = -1;
            s = dd_neg(s);
        }
        r = dd_add(log_of(dd_div(dd_from(__hsx_pi), s)), dd_neg(lgamma_dd(two_sum(1.0, -x))));
    }
    return r.hi + r.lo;
}

double tgamma(double x) {
    if (isnan(x))
        return x + x;
    if (x == 0)
        return __hsx_math_range(1.0 / x);
    if (isinf(x))
        return x > 0 ? x : __hsx_math_domain();
    if (x < 0 && is_integer(x))
        return __hsx_math_domain();
    if (x > 171.62437695630272)
        return __hsx_math_range(INFINITY);
    if (x >= 1 && x <= 23 && is_integer(x)) {
        double f = 1;
        for (int k = 2; k < (int)x; k++)
            f *= k;
        return f;
    }
    if (fabs(x) < 0x1p-54) {
        double r = 1 / x;
        if (isinf(r))
            errno = ERANGE;
        return r;
    }
    int e;
    if (x > 0) {
        dd_t y = __hsx_exp_dd(lgamma_dd(dd(x, 0)), &e);
        return __hsx_scale_round(y, e);
    }
    /* pi / (sin(pi x) gamma(1 - x)) */
    dd_t lg = lgamma_dd(two_sum(1.0, -x));
    if (lg.hi > 800)
        return __hsx_math_range(sinpi(x).hi < 0 ? -0.0 : 0.0);
    dd_t y = __hsx_exp_dd(lg, &e);
    dd_t v = dd_div(dd_from(__hsx_pi), dd_mul(sinpi(x), y));
    int negative = v.hi < 0;
    double r = __hsx_scale_round(negative ? dd_neg(v) : v, -e);
    if (r == 0 || exponent_field(r) == 0 || isinf(r))
        errno = ERANGE;
    return negative ? -r : r;
}

float lgammaf(float x) { return (float)lgamma(x); }
float tgammaf(float x) { return (float)tgamma(x); }
