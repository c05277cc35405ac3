/* math.h: the C99 functions in double, float and long double (= double), as
 * lib/src/math_*.c.  Results are within about one ulp of the exact value (most within
 * half an ulp: correctly rounded but for rare hard cases); errors set errno
 * (math_errhandling is MATH_ERRNO: EDOM for a domain error, ERANGE for a pole,
 * an overflow or an underflow to zero). */
#ifndef _HSX_MATH_H
#define _HSX_MATH_H

typedef float float_t;
typedef double double_t;

#define HUGE_VAL (__builtin_huge_val())
#define HUGE_VALF (__builtin_huge_valf())
#define HUGE_VALL (__builtin_huge_vall())
#define INFINITY (__builtin_inff())
#define NAN (__builtin_nanf(""))

#define FP_NAN 0
#define FP_INFINITE 1
#define FP_ZERO 2
#define FP_SUBNORMAL 3
#define FP_NORMAL 4
#define FP_ILOGB0 (-2147483647 - 1)
#define FP_ILOGBNAN (-2147483647 - 1)
#define MATH_ERRNO 1
#define MATH_ERREXCEPT 2
#define math_errhandling MATH_ERRNO

#define fpclassify(x) __builtin_fpclassify(FP_NAN, FP_INFINITE, FP_NORMAL, FP_SUBNORMAL, \
                                           FP_ZERO, x)
#define isfinite(x) __builtin_isfinite(x)
#define isinf(x) __builtin_isinf_sign(x)
#define isnan(x) __builtin_isnan(x)
#define isnormal(x) __builtin_isnormal(x)
#define signbit(x) __builtin_signbit(x)
#define isgreater(x, y) __builtin_isgreater(x, y)
#define isgreaterequal(x, y) __builtin_isgreaterequal(x, y)
#define isless(x, y) __builtin_isless(x, y)
#define islessequal(x, y) __builtin_islessequal(x, y)
#define islessgreater(x, y) __builtin_islessgreater(x, y)
#define isunordered(x, y) __builtin_isunordered(x, y)

/* POSIX/XSI constants, as glibc provides them by default. */
#define M_E 2.7182818284590452354
#define M_LOG2E 1.4426950408889634074
#define M_LOG10E 0.43429448190325182765
#define M_LN2 0.69314718055994530942
#define M_LN10 2.30258509299404568402
#define M_PI 3.14159265358979323846
#define M_PI_2 1.57079632679489661923
#define M_PI_4 0.78539816339744830962
#define M_1_PI 0.31830988618379067154
#define M_2_PI 0.63661977236758134308
#define M_2_SQRTPI 1.12837916709551257390
#define M_SQRT2 1.41421356237309504880
#define M_SQRT1_2 0.70710678118654752440

extern int signgam;

#define __HSX_MATH1(name) double name(double); float name##f(float); \
    long double name##l(long double);
#define __HSX_MATH2(name) double name(double, double); float name##f(float, float); \
    long double name##l(long double, long double);

__HSX_MATH1(acos) __HSX_MATH1(asin) __HSX_MATH1(atan) __HSX_MATH2(atan2)
__HSX_MATH1(cos) __HSX_MATH1(sin) __HSX_MATH1(tan)
__HSX_MATH1(acosh) __HSX_MATH1(asinh) __HSX_MATH1(atanh)
__HSX_MATH1(cosh) __HSX_MATH1(sinh) __HSX_MATH1(tanh)
__HSX_MATH1(exp) __HSX_MATH1(exp2) __HSX_MATH1(expm1)
__HSX_MATH1(log) __HSX_MATH1(log10) __HSX_MATH1(log1p) __HSX_MATH1(log2) __HSX_MATH1(logb)
__HSX_MATH1(cbrt) __HSX_MATH1(fabs) __HSX_MATH2(hypot) __HSX_MATH2(pow) __HSX_MATH1(sqrt)
__HSX_MATH1(erf) __HSX_MATH1(erfc) __HSX_MATH1(lgamma) __HSX_MATH1(tgamma)
__HSX_MATH1(ceil) __HSX_MATH1(floor) __HSX_MATH1(nearbyint) __HSX_MATH1(rint)
__HSX_MATH1(round) __HSX_MATH1(roundeven) __HSX_MATH1(trunc)
__HSX_MATH2(fmod) __HSX_MATH2(remainder) __HSX_MATH2(copysign) __HSX_MATH2(nextafter)
__HSX_MATH2(fdim) __HSX_MATH2(fmax) __HSX_MATH2(fmin)

double frexp(double x, int *e);
float frexpf(float x, int *e);
long double frexpl(long double x, int *e);
double ldexp(double x, int e);
float ldexpf(float x, int e);
long double ldexpl(long double x, int e);
double modf(double x, double *ip);
float modff(float x, float *ip);
long double modfl(long double x, long double *ip);
double scalbn(double x, int n);
float scalbnf(float x, int n);
long double scalbnl(long double x, int n);
double scalbln(double x, long n);
float scalblnf(float x, long n);
long double scalblnl(long double x, long n);
int ilogb(double x);
int ilogbf(float x);
int ilogbl(long double x);
long lrint(double x);
long lrintf(float x);
long lrintl(long double x);
long long llrint(double x);
long long llrintf(float x);
long long llrintl(long double x);
long lround(double x);
long lroundf(float x);
long lroundl(long double x);
long long llround(double x);
long long llroundf(float x);
long long llroundl(long double x);
double remquo(double x, double y, int *quo);
float remquof(float x, float y, int *quo);
long double remquol(long double x, long double y, int *quo);
double nan(const char *tag);
float nanf(const char *tag);
long double nanl(const char *tag);
double nexttoward(double x, long double y);
float nexttowardf(float x, long double y);
long double nexttowardl(long double x, long double y);
double fma(double x, double y, double z);
float fmaf(float x, float y, float z);
long double fmal(long double x, long double y, long double z);
#undef __HSX_MATH1
#undef __HSX_MATH2
#endif
