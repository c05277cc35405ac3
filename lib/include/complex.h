/* complex.h: C99 complex arithmetic (lib/src/complex.c).  The functions follow
 * C11 Annex G for infinities, NaNs and signed zeros on the branch cuts; the float
 * versions compute in double and round, the long double ones are the double ones
 * (long double is double: docs/c-compiler.md). */
#ifndef _HSX_COMPLEX_H
#define _HSX_COMPLEX_H

#define complex _Complex
#define _Complex_I (__extension__ 1.0iF)
#define I _Complex_I
#define CMPLX(x, y) __builtin_complex((double)(x), (double)(y))
#define CMPLXF(x, y) __builtin_complex((float)(x), (float)(y))
#define CMPLXL(x, y) __builtin_complex((long double)(x), (long double)(y))

#define __HSX_CPLX(name) double _Complex name(double _Complex); \
    float _Complex name##f(float _Complex); \
    long double _Complex name##l(long double _Complex);
#define __HSX_CREAL(name) double name(double _Complex); float name##f(float _Complex); \
    long double name##l(long double _Complex);

__HSX_CPLX(cacos) __HSX_CPLX(casin) __HSX_CPLX(catan)
__HSX_CPLX(ccos) __HSX_CPLX(csin) __HSX_CPLX(ctan)
__HSX_CPLX(cacosh) __HSX_CPLX(casinh) __HSX_CPLX(catanh)
__HSX_CPLX(ccosh) __HSX_CPLX(csinh) __HSX_CPLX(ctanh)
__HSX_CPLX(cexp) __HSX_CPLX(clog) __HSX_CPLX(csqrt)
__HSX_CPLX(conj) __HSX_CPLX(cproj)
__HSX_CREAL(cabs) __HSX_CREAL(carg) __HSX_CREAL(creal) __HSX_CREAL(cimag)

double _Complex cpow(double _Complex x, double _Complex y);
float _Complex cpowf(float _Complex x, float _Complex y);
long double _Complex cpowl(long double _Complex x, long double _Complex y);

#undef __HSX_CPLX
#undef __HSX_CREAL
#endif
