/* complex.h's functions.  Finite arguments: the inverse functions by Kahan's formulas
 * ("Branch Cuts for Complex Elementary Functions", 1987: square roots of 1 - z and
 * 1 + z, no cancellation, signed zeros on the cuts), clog's real part from
 * x^2 + y^2 in double-double; infinities and NaNs as C11 Annex G lists them. */
#include <complex.h>
#include "math_impl.h"

#define C(x, y) __builtin_complex((double)(x), (double)(y))
#define RE(z) __real__(z)
#define IM(z) __imag__(z)

static const double pi = 3.14159265358979323846, pi_2 = 1.57079632679489661923,
    pi_4 = 0.78539816339744830962, pi3_4 = 2.35619449019234492885;

double creal(double _Complex z) { return RE(z); }
double cimag(double _Complex z) { return IM(z); }
double _Complex conj(double _Complex z) { return C(RE(z), -IM(z)); }
double cabs(double _Complex z) { return hypot(RE(z), IM(z)); }
double carg(double _Complex z) { return atan2(IM(z), RE(z)); }

double _Complex cproj(double _Complex z) {
    if (isinf(RE(z)) || isinf(IM(z)))
        return C(INFINITY, copysign(0.0, IM(z)));
    return z;
}

/* -i * w: the rotation between the circular and the hyperbolic functions. */
static double _Complex times_minus_i(double _Complex w) { return C(IM(w), -RE(w)); }
static double _Complex times_i(double _Complex z) { return C(-IM(z), RE(z)); }

/* -- exponential, logarithm, powers, square root ---------------------------------------- */

/* e^x * (cos y + i sin y), x and y finite; e^x may overflow where the product does not. */
static double _Complex exp_cis(double x, double y, double scale) {
    double c = cos(y), s = sin(y);
    if (x > 709) {
        double h = exp(x / 2);
        return C(scale * c * h * h, scale * s * h * h);
    }
    double e = exp(x) * scale;
    return C(e * c, e * s);
}

double _Complex cexp(double _Complex z) {
    double x = RE(z), y = IM(z);
    if (y == 0)
        return C(exp(x), y);
    if (isinf(x)) {
        if (!isfinite(y))
            return x < 0 ? C(0.0, copysign(0.0, y)) : C(x, NAN);
        double m = x < 0 ? 0.0 : x;            /* +0 cis(y) or +inf cis(y) */
        return C(m * cos(y), m * sin(y));
    }
    if (!isfinite(y) || isnan(x))
        return C(NAN, NAN);
    return exp_cis(x, y, 1.0);
}

/* log |x + iy| for finite x, y not both zero: x^2 + y^2 exact in dd, scaled by 2^k. */
static double log_abs(double x, double y) {
    x = fabs(x), y = fabs(y);
    if (x < y) {
        double t = x;
        x = y, y = t;
    }
    int k = 0;
    if (x > 0x1p500)
        k = 600;
    else if (x < 0x1p-500)
        k = -600;
    x = ldexp(x, -k), y = ldexp(y, -k);
    dd_t s = dd_add(two_prod(x, x), two_prod(y, y));
    dd_t l = dd_add_d(__hsx_log_dd(s.hi), s.lo / s.hi);
    l = dd_add(dd_mul_d(l, 0.5), dd_mul_d(dd_from(__hsx_ln2), k));
    return l.hi + l.lo;
}

double _Complex clog(double _Complex z) {
    double x = RE(z), y = IM(z);
    double theta = atan2(y, x);
    if (isinf(x) || isinf(y))
        return C(INFINITY, theta);
    if (isnan(x) || isnan(y))
        return C(NAN, NAN);
    if (x == 0 && y == 0)
        return C(-INFINITY, theta);
    return C(log_abs(x, y), theta);
}

double _Complex cpow(double _Complex x, double _Complex y) { return cexp(y * clog(x)); }

double _Complex csqrt(double _Complex z) {
    double x = RE(z), y = IM(z);
    if (isinf(y))
        return C(INFINITY, y);
    if (isinf(x)) {
        if (x > 0)
            return C(x, isnan(y) ? y : copysign(0.0, y));
        return C(isnan(y) ? y : 0.0, copysign(INFINITY, y));
    }
    if (isnan(x) || isnan(y))
        return C(NAN, NAN);
    if (x == 0) {                              /* sqrt(|y| / 2) (1 + i sign y) */
        double r = fabs(y) < 0x1p-1000 ? sqrt(fabs(y) * 0x1p100 / 2) * 0x1p-50
                                       : sqrt(fabs(y) / 2);
        return C(r, copysign(r, y));
    }
    int k = 0;                                 /* keep |x| + |z| finite and normal */
    if (fabs(x) > 0x1p1020 || fabs(y) > 0x1p1020)
        k = 4;
    else if (fabs(x) < 0x1p-1000 && fabs(y) < 0x1p-1000)
        k = -200;
    double sx = ldexp(x, -k), sy = ldexp(y, -k);
    double t = sqrt((fabs(sx) + hypot(sx, sy)) * 0.5);
    double u = fabs(sy) / (2 * t);
    t = ldexp(t, k / 2), u = ldexp(u, k / 2);
    return x >= 0 ? C(t, copysign(u, y)) : C(u, copysign(t, y));
}

/* -- hyperbolic and circular functions --------------------------------------------------- */

double _Complex csinh(double _Complex z) {
    double x = RE(z), y = IM(z);
    if (y == 0)
        return C(sinh(x), y);
    if (isinf(x))
        return isfinite(y) ? C(x * cos(y), INFINITY * sin(y)) : C(x, NAN);
    if (isnan(x) || !isfinite(y))
        return x == 0 ? C(x, NAN) : C(NAN, NAN);
    if (x == 0)
        return C(x * cos(y), sin(y));
    if (fabs(x) > 709) {                       /* sinh and cosh overflow alone: e^|x| / 2 */
        double _Complex w = exp_cis(fabs(x), y, 0.5);
        return C(copysign(1.0, x) * RE(w), IM(w));
    }
    return C(sinh(x) * cos(y), cosh(x) * sin(y));
}

double _Complex ccosh(double _Complex z) {
    double x = RE(z), y = IM(z);
    if (y == 0)
        return C(cosh(x), copysign(0.0, x) * y);
    if (isinf(x))
        return isfinite(y) ? C(INFINITY * cos(y), x * sin(y)) : C(INFINITY, NAN);
    if (isnan(x) || !isfinite(y))
        return x == 0 ? C(NAN, 0.0) : C(NAN, NAN);
    if (x == 0)
        return C(cos(y), x * sin(y));
    if (fabs(x) > 709) {
        double _Complex w = exp_cis(fabs(x), y, 0.5);
        return C(RE(w), copysign(1.0, x) * IM(w));
    }
    return C(cosh(x) * cos(y), sinh(x) * sin(y));
}

double _Complex ctanh(double _Complex z) {
    double x = RE(z), y = IM(z);
    if (isinf(x)) {
        double im = isfinite(y) && fabs(y) > 1 ? sin(y) * cos(y) : y;
        return C(copysign(1.0, x), copysign(0.0, im));
    }
    if (y == 0)
        return C(tanh(x), y);
    if (isnan(x) || !isfinite(y))
        return x == 0 ? C(x, NAN) : C(NAN, NAN);
    double s = sin(y), c = cos(y);
    if (fabs(x) > 22) {                        /* tanh x = +-1; Im = 4 sin y cos y e^-2|x| */
        double e = fabs(x) < 372 ? exp(-2 * fabs(x)) : 0.0;
        return C(copysign(1.0, x), 4 * s * c * e);
    }
    double sh = sinh(x), ch = cosh(x);
    double den = sh * sh + c * c;
    return C(sh * ch / den, s * c / den);
}

double _Complex csin(double _Complex z) { return times_minus_i(csinh(times_i(z))); }
double _Complex ccos(double _Complex z) { return ccosh(times_i(z)); }
double _Complex ctan(double _Complex z) { return times_minus_i(ctanh(times_i(z))); }

/* -- inverse functions ------------------------------------------------------------------- */

static int finite2(double _Complex z) { return isfinite(RE(z)) && isfinite(IM(z)); }

/* |arg| of an infinite point with x infinite (cacos's real part, cacosh's imaginary). */
static double infinite_angle(double x, double y) {
    if (isinf(y))
        return x < 0 ? pi3_4 : pi_4;
    return x < 0 ? pi : 0.0;
}

double _Complex cacos(double _Complex z) {
    double x = RE(z), y = IM(z);
    if (isinf(x)) {
        if (isnan(y))
            return C(NAN, INFINITY);
        return C(infinite_angle(x, y), -copysign(INFINITY, y));
    }
    if (isinf(y))
        return C(isnan(x) ? x : pi_2, -y);
    if (isnan(x) || isnan(y))
        return x == 0 ? C(pi_2, y) : C(NAN, NAN);
    double _Complex a = csqrt(C(1 - x, -y)), b = csqrt(C(1 + x, y));
    return C(2 * atan2(RE(a), RE(b)), asinh(RE(b) * IM(a) - IM(b) * RE(a)));
}

/* Kahan's arcsine of a finite z. */
static double _Complex asin_finite(double _Complex z) {
    double _Complex a = csqrt(C(1 - RE(z), -IM(z))), b = csqrt(C(1 + RE(z), IM(z)));
    return C(atan2(RE(z), RE(a) * RE(b) - IM(a) * IM(b)),
             asinh(RE(a) * IM(b) - IM(a) * RE(b)));
}

double _Complex casinh(double _Complex z) {
    double x = RE(z), y = IM(z);
    if (finite2(z))
        return times_minus_i(asin_finite(times_i(z)));
    if (isinf(x)) {
        if (isnan(y))
            return C(x, y);
        return C(x, isinf(y) ? copysign(pi_4, y) : copysign(0.0, y));
    }
    if (isinf(y))
        return isnan(x) ? C(INFINITY, x) : C(copysign(INFINITY, x), copysign(pi_2, y));
    return isnan(x) && y == 0 ? C(x, y) : C(NAN, NAN);
}

double _Complex casin(double _Complex z) {
    if (finite2(z))
        return asin_finite(z);
    return times_minus_i(casinh(times_i(z)));
}

double _Complex cacosh(double _Complex z) {
    double x = RE(z), y = IM(z);
    if (isinf(x)) {
        if (isnan(y))
            return C(INFINITY, y);
        return C(INFINITY, copysign(infinite_angle(x, y), y));
    }
    if (isinf(y))
        return C(INFINITY, isnan(x) ? x : copysign(pi_2, y));
    if (isnan(x) || isnan(y))
        return x == 0 ? C(NAN, pi_2) : C(NAN, NAN);
    double _Complex a = csqrt(C(x - 1, y)), b = csqrt(C(x + 1, y));
    return C(asinh(RE(a) * RE(b) + IM(a) * IM(b)), 2 * atan2(IM(a), RE(b)));
}

double _Complex catanh(double _Complex z) {
    double x = RE(z), y = IM(z);
    if (isinf(x) || isinf(y)) {
        if (isnan(y))
            return C(copysign(0.0, x), y);
        return C(isnan(x) ? 0.0 : copysign(0.0, x), copysign(pi_2, y));
    }
    if (isnan(x) || isnan(y))
        return x == 0 ? C(x, y) : C(NAN, NAN);
    double ax = fabs(x), m = 1 - ax;
    double re = 0.25 * log1p(4 * ax / (m * m + y * y));
    double im = 0.5 * atan2(2 * y, m * (1 + ax) - y * y);
    return C(copysign(re, x), im);
}

double _Complex catan(double _Complex z) { return times_minus_i(catanh(times_i(z))); }

/* -- float and long double: the double functions, rounded --------------------------------- */

#define BY_DOUBLE(name) \
    float _Complex name##f(float _Complex z) { return (float _Complex)name(z); } \
    long double _Complex name##l(long double _Complex z) { return name(z); }
#define REAL_BY_DOUBLE(name) \
    float name##f(float _Complex z) { return (float)name(z); } \
    long double name##l(long double _Complex z) { return name(z); }

BY_DOUBLE(cacos) BY_DOUBLE(casin) BY_DOUBLE(catan) BY_DOUBLE(ccos) BY_DOUBLE(csin)
BY_DOUBLE(ctan) BY_DOUBLE(cacosh) BY_DOUBLE(casinh) BY_DOUBLE(catanh) BY_DOUBLE(ccosh)
BY_DOUBLE(csinh) BY_DOUBLE(ctanh) BY_DOUBLE(cexp) BY_DOUBLE(clog) BY_DOUBLE(csqrt)
BY_DOUBLE(conj) BY_DOUBLE(cproj)
REAL_BY_DOUBLE(cabs) REAL_BY_DOUBLE(carg) REAL_BY_DOUBLE(creal) REAL_BY_DOUBLE(cimag)

float _Complex cpowf(float _Complex x, float _Complex y) { return (float _Complex)cpow(x, y); }
long double _Complex cpowl(long double _Complex x, long double _Complex y) {
    return cpow(x, y);
}
