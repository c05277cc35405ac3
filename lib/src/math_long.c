/* The long double functions of math.h: long double is double (docs/c-compiler.md). */
#include "math_impl.h"

#define ONE(name) long double name##l(long double x) { return name(x); }
#define TWO(name) long double name##l(long double x, long double y) { return name(x, y); }

ONE(acos) ONE(asin) ONE(atan) TWO(atan2) ONE(cos) ONE(sin) ONE(tan)
ONE(acosh) ONE(asinh) ONE(atanh) ONE(cosh) ONE(sinh) ONE(tanh)
ONE(exp) ONE(exp2) ONE(expm1) ONE(log) ONE(log10) ONE(log1p) ONE(log2) ONE(logb)
ONE(cbrt) ONE(fabs) TWO(hypot) TWO(pow) ONE(sqrt) ONE(erf) ONE(erfc) ONE(lgamma)
ONE(tgamma) ONE(ceil) ONE(floor) ONE(nearbyint) ONE(rint) ONE(round) ONE(roundeven)
ONE(trunc)
TWO(fmod) TWO(remainder) TWO(copysign) TWO(nextafter) TWO(fdim) TWO(fmax) TWO(fmin)

long double frexpl(long double x, int *e) { return frexp(x, e); }
long double ldexpl(long double x, int e) { return ldexp(x, e); }
long double modfl(long double x, long double *ip) {
    double i;
    double f = modf(x, &i);
    *ip = i;
    return f;
}
long double scalbnl(long double x, int n) { return scalbn(x, n); }
long double scalblnl(long double x, long n) { return scalbln(x, n); }
int ilogbl(long double x) { return ilogb(x); }
long lrintl(long double x) { return lrint(x); }
long long llrintl(long double x) { return llrint(x); }
long lroundl(long double x) { return lround(x); }
long long llroundl(long double x) { return llround(x); }
long double remquol(long double x, long double y, int *quo) { return remquo(x, y, quo); }
long double nanl(const char *tag) { return nan(tag); }
long double nexttowardl(long double x, long double y) { return nextafter(x, y); }
long double fmal(long double x, long double y, long double z) { return fma(x, y, z); }
