/* erf and erfc.  Below 3: erf x = 2/sqrt(pi) exp(-x^2) sum 2^n x^(2n+1) / (2n+1)!!
 * (positive terms, in dd); from 3: erfc x = exp(-x^2) / (sqrt(pi) f) with f the
 * continued fraction x + (1/2)/(x + 1/(x + (3/2)/(x + ...))), evaluated backwards in dd
 * to a depth that converges to 2^-70 there. */
#include "math_impl.h"

static dd_t erf_series(double a) {
    dd_t x2 = two_prod(a, a);
    dd_t two_x2 = dd(2 * x2.hi, 2 * x2.lo);
    dd_t term = dd(a, 0), sum = dd(a, 0);
    for (int n = 0; n < 200; n++) {
        term = dd_div(dd_mul(term, two_x2), dd(2 * n + 3, 0));
        sum = dd_add(sum, term);
        if (term.hi < sum.hi * 0x1p-106)
            break;
    }
    int e;
    dd_t y = __hsx_exp_dd(dd_neg(x2), &e);
    dd_t g = dd(ldexp(y.hi, e), ldexp(y.lo, e));
    return dd_mul(dd_mul(sum, g), dd_from(__hsx_two_over_sqrtpi));
}

/* erfc(a), a >= 3, as y 2^e. */
static dd_t erfc_fraction(double a, int *e) {
    int depth = 20 + (int)(400 / (a * a));
    dd_t f = dd(a, 0);
    for (int k = depth; k >= 1; k--)
        f = dd_add_d(dd_div(dd(0.5 * k, 0), f), a);
    dd_t x2 = two_prod(a, a);
    dd_t y = __hsx_exp_dd(dd_neg(x2), e);
    return dd_div(dd_mul(y, dd_from(__hsx_inv_sqrtpi)), f);
}

double erf(double x) {
    if (isnan(x))
        return x + x;
    double a = fabs(x), v;
    if (a < 0x1p-28) {
        dd_t r = dd_mul_d(dd_from(__hsx_two_over_sqrtpi), x);
        return r.hi + r.lo;
    }
    if (a >= 6) {
        v = 1.0;
    } else if (a < 3) {
        dd_t r = erf_series(a);
        v = r.hi + r.lo;
    } else {
        int e;
        dd_t c = erfc_fraction(a, &e);
        dd_t r = dd_add_d(dd_neg(dd(ldexp(c.hi, e), ldexp(c.lo, e))), 1.0);
        v = r.hi + r.lo;
    }
    return x < 0 ? -v : v;
}

double erfc(double x) {
    if (isnan(x))
        return x + x;
    if (x < 3) {
        if (x < -6)
            return 2.0;
        if (fabs(x) < 0x1p-56)
            return 1.0 - x;
        dd_t r = erf_series(fabs(x));
        r = x < 0 ? dd_add_d(r, 1.0) : dd_add_d(dd_neg(r), 1.0);
        return r.hi + r.lo;
    }
    if (x > 27.3)
        return __hsx_math_range(0.0);
    int e;
    dd_t c = erfc_fraction(x, &e);
    double v = __hsx_scale_round(c, e);
    if (v == 0 || exponent_field(v) == 0)
        errno = ERANGE;
    return v;
}

float erff(float x) { return (float)erf(x); }
float erfcf(float x) { return (float)erfc(x); }
