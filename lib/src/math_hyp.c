/* sinh, cosh, tanh from the dd exponential; asinh, acosh, atanh from the dd
 * logarithm (of dd arguments: log(w.hi) + w.lo / w.hi). */
#include "math_impl.h"

/* exp(a) as a dd value (a <= 60: no overflow). */
static dd_t exp_value(double a) {
    int e;
    dd_t y = __hsx_exp_dd(dd(a, 0), &e);
    return dd(ldexp(y.hi, e), ldexp(y.lo, e));
}

/* exp(a) / 2 for large a, rounded once (overflow included). */
static double half_exp(double a) {
    return __hsx_exp_round(dd_add(dd(a, 0), dd_neg(dd_from(__hsx_ln2))));
}

double sinh(double x) {
    if (!isfinite(x))
        return x + x;
    double a = fabs(x), v;
    if (a < 0x1p-26)
        return x;
    if (a < 1) {                               /* x + x^3/6 + ...: terms past x^19 negligible */
        double z = a * a;
        double s = z * (1.0 / 6 + z * (1.0 / 120 + z * (1.0 / 5040 + z * (1.0 / 362880 +
                   z * (1.0 / 39916800 + z * (1.0 / 6227020800.0 + z * (1.0 / 1307674368000.0 +
                   z * (1.0 / 355687428096000.0 + z * (1.0 / 121645100408832000.0)))))))));
        v = a + a * s;
    } else if (a > 22) {
        v = half_exp(a);
    } else {
        dd_t e = exp_value(a);
        dd_t r = dd_add(e, dd_neg(dd_div(dd(1.0, 0), e)));
        v = 0.5 * (r.hi + r.lo);
    }
    return x < 0 ? -v : v;
}

double cosh(double x) {
    if (!isfinite(x))
        return x * x;
    double a = fabs(x);
    if (a < 0x1p-27)
        return 1.0;
    if (a < 1) {                               /* 1 + x^2/2 + x^4/24 + ... */
        dd_t z = two_prod(a, a);
        double zz = z.hi;
        double c = zz * zz * (1.0 / 24 + zz * (1.0 / 720 + zz * (1.0 / 40320 +
                   zz * (1.0 / 3628800 + zz * (1.0 / 479001600 + zz * (1.0 / 87178291200.0 +
                   zz * (1.0 / 20922789888000.0 + zz * (1.0 / 6402373705728000.0))))))));
        dd_t w = fast_two_sum(1.0, 0.5 * z.hi);
        return w.hi + (w.lo + 0.5 * z.lo + c);
    }
    if (a > 22)
        return half_exp(a);
    dd_t e = exp_value(a);
    dd_t r = dd_add(e, dd_div(dd(1.0, 0), e));
    return 0.5 * (r.hi + r.lo);
}

double tanh(double x) {
    if (isnan(x))
        return x + x;
    double a = fabs(x), v;
    if (a < 0x1p-27)
        return x;
    if (a > 22) {
        v = 1.0;
    } else {                                   /* u / (u + 2), u = exp(2a) - 1 */
        dd_t u = dd_add_d(exp_value(2 * a), -1.0);
        dd_t t = dd_div(u, dd_add_d(u, 2.0));
        v = t.hi + t.lo;
    }
    return x < 0 ? -v : v;
}

/* log(w.hi + w.lo), w > 0. */
static dd_t log_of(dd_t w) { return dd_add_d(__hsx_log_dd(w.hi), w.lo / w.hi); }

double asinh(double x) {
    if (!isfinite(x))
        return x + x;
    double a = fabs(x);
    if (a < 0x1p-26)
        return x;
    dd_t r;
    if (a > 0x1p28) {                          /* log(2a) */
        r = dd_add(__hsx_log_dd(a), dd_from(__hsx_ln2));
    } else {                                   /* log(a + sqrt(a^2 + 1)) */
        dd_t s = __hsx_sqrt_dd(dd_add_d(two_prod(a, a), 1.0));
        r = log_of(dd_add_d(s, a));
    }
    double v = r.hi + r.lo;
    return x < 0 ? -v : v;
}

double acosh(double x) {
    if (isnan(x))
        return x + x;
    if (x < 1)
        return __hsx_math_domain();
    if (x == 1)
        return 0.0;
    if (isinf(x))
        return x;
    dd_t r;
    if (x > 0x1p28) {
        r = dd_add(__hsx_log_dd(x), dd_from(__hsx_ln2));
    } else {                                   /* log(x + sqrt(x^2 - 1)) */
        dd_t s = __hsx_sqrt_dd(dd_add_d(two_prod(x, x), -1.0));
        r = log_of(dd_add_d(s, x));
    }
    return r.hi + r.lo;
}

double atanh(double x) {
    if (isnan(x))
        return x + x;
    double a = fabs(x);
    if (a > 1)
        return __hsx_math_domain();
    if (a == 1)
        return __hsx_math_range(x / 0.0);
    if (a < 0x1p-27)
        return x;
    dd_t q = dd_div(two_sum(1.0, a), two_sum(1.0, -a));     /* (1 + a) / (1 - a) */
    dd_t r = log_of(q);
    double v = 0.5 * (r.hi + r.lo);
    return x < 0 ? -v : v;
}

float sinhf(float x) { return (float)sinh(x); }
float coshf(float x) { return (float)cosh(x); }
float tanhf(float x) { return (float)tanh(x); }
float asinhf(float x) { return (float)asinh(x); }
float acoshf(float x) { return (float)acosh(x); }
float atanhf(float x) { return (float)atanh(x); }
