/* tgmath.h: the type-generic macros of C99 7.22, by _Generic.  The type of the
 * arguments together picks the function: long double if any is long double, else
 * double if any is double or an integer, else float; complex if any is complex (the
 * functions with complex versions). */
#ifndef _HSX_TGMATH_H
#define _HSX_TGMATH_H
#include <complex.h>
#include <math.h>

/* A value of the type an argument counts as: integers count as double. */
#define __TG(x) _Generic((x), float: (float)0, long double: (long double)0,             \
    float _Complex: (float _Complex)0, double _Complex: (double _Complex)0,           \
    long double _Complex: (long double _Complex)0, default: (double)0)

#define __TG_REAL(fn, t) _Generic((t), float: fn##f, long double: fn##l, default: fn)
#define __TG_ANY(fn, cfn, t) _Generic((t), float: fn##f, long double: fn##l,             \
    float _Complex: cfn##f, double _Complex: cfn, long double _Complex: cfn##l,       \
    default: fn)
#define __TG_COMPLEX(cfn, t) _Generic((t), float: cfn##f, long double: cfn##l,           \
    float _Complex: cfn##f, long double _Complex: cfn##l, default: cfn)

/* Real and complex. */
#define acos(x) __TG_ANY(acos, cacos, __TG(x))(x)
#define asin(x) __TG_ANY(asin, casin, __TG(x))(x)
#define atan(x) __TG_ANY(atan, catan, __TG(x))(x)
#define acosh(x) __TG_ANY(acosh, cacosh, __TG(x))(x)
#define asinh(x) __TG_ANY(asinh, casinh, __TG(x))(x)
#define atanh(x) __TG_ANY(atanh, catanh, __TG(x))(x)
#define cos(x) __TG_ANY(cos, ccos, __TG(x))(x)
#define sin(x) __TG_ANY(sin, csin, __TG(x))(x)
#define tan(x) __TG_ANY(tan, ctan, __TG(x))(x)
#define cosh(x) __TG_ANY(cosh, ccosh, __TG(x))(x)
#define sinh(x) __TG_ANY(sinh, csinh, __TG(x))(x)
#define tanh(x) __TG_ANY(tanh, ctanh, __TG(x))(x)
#define exp(x) __TG_ANY(exp, cexp, __TG(x))(x)
#define log(x) __TG_ANY(log, clog, __TG(x))(x)
#define sqrt(x) __TG_ANY(sqrt, csqrt, __TG(x))(x)
#define fabs(x) __TG_ANY(fabs, cabs, __TG(x))(x)
#define pow(x, y) __TG_ANY(pow, cpow, __TG(x) + __TG(y))(x, y)

/* Real only. */
#define atan2(y, x) __TG_REAL(atan2, __TG(y) + __TG(x))(y, x)
#define cbrt(x) __TG_REAL(cbrt, __TG(x))(x)
#define ceil(x) __TG_REAL(ceil, __TG(x))(x)
#define copysign(x, y) __TG_REAL(copysign, __TG(x) + __TG(y))(x, y)
#define erf(x) __TG_REAL(erf, __TG(x))(x)
#define erfc(x) __TG_REAL(erfc, __TG(x))(x)
#define exp2(x) __TG_REAL(exp2, __TG(x))(x)
#define expm1(x) __TG_REAL(expm1, __TG(x))(x)
#define fdim(x, y) __TG_REAL(fdim, __TG(x) + __TG(y))(x, y)
#define floor(x) __TG_REAL(floor, __TG(x))(x)
#define fma(x, y, z) __TG_REAL(fma, __TG(x) + __TG(y) + __TG(z))(x, y, z)
#define fmax(x, y) __TG_REAL(fmax, __TG(x) + __TG(y))(x, y)
#define fmin(x, y) __TG_REAL(fmin, __TG(x) + __TG(y))(x, y)
#define fmod(x, y) __TG_REAL(fmod, __TG(x) + __TG(y))(x, y)
#define frexp(x, e) __TG_REAL(frexp, __TG(x))(x, e)
#define hypot(x, y) __TG_REAL(hypot, __TG(x) + __TG(y))(x, y)
#define ilogb(x) __TG_REAL(ilogb, __TG(x))(x)
#define ldexp(x, e) __TG_REAL(ldexp, __TG(x))(x, e)
#define lgamma(x) __TG_REAL(lgamma, __TG(x))(x)
#define llrint(x) __TG_REAL(llrint, __TG(x))(x)
#define llround(x) __TG_REAL(llround, __TG(x))(x)
#define log10(x) __TG_REAL(log10, __TG(x))(x)
#define log1p(x) __TG_REAL(log1p, __TG(x))(x)
#define log2(x) __TG_REAL(log2, __TG(x))(x)
#define logb(x) __TG_REAL(logb, __TG(x))(x)
#define lrint(x) __TG_REAL(lrint, __TG(x))(x)
#define lround(x) __TG_REAL(lround, __TG(x))(x)
#define nearbyint(x) __TG_REAL(nearbyint, __TG(x))(x)
#define nextafter(x, y) __TG_REAL(nextafter, __TG(x) + __TG(y))(x, y)
#define nexttoward(x, y) __TG_REAL(nexttoward, __TG(x))(x, y)
#define remainder(x, y) __TG_REAL(remainder, __TG(x) + __TG(y))(x, y)
#define remquo(x, y, q) __TG_REAL(remquo, __TG(x) + __TG(y))(x, y, q)
#define rint(x) __TG_REAL(rint, __TG(x))(x)
#define round(x) __TG_REAL(round, __TG(x))(x)
#define scalbn(x, n) __TG_REAL(scalbn, __TG(x))(x, n)
#define scalbln(x, n) __TG_REAL(scalbln, __TG(x))(x, n)
#define tgamma(x) __TG_REAL(tgamma, __TG(x))(x)
#define trunc(x) __TG_REAL(trunc, __TG(x))(x)

/* Complex only. */
#define carg(x) __TG_COMPLEX(carg, __TG(x))(x)
#define cimag(x) __TG_COMPLEX(cimag, __TG(x))(x)
#define conj(x) __TG_COMPLEX(conj, __TG(x))(x)
#define cproj(x) __TG_COMPLEX(cproj, __TG(x))(x)
#define creal(x) __TG_COMPLEX(creal, __TG(x))(x)
#endif
