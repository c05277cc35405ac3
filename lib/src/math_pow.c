/* pow: the special cases of C99 Annex F, then exp(y log|x|) with log|x| and the product
 * in dd (about 2^-68 relative), so the result is within about half an ulp. */
#include "math_impl.h"

/* 2 for an odd integer, 1 for an even one, 0 for a non-integer (y finite). */
static int integer_kind(double y) {
    if (trunc(y) != y)
        return 0;
    if (fabs(y) >= 0x1p53)
        return 1;
    return ((long long)y & 1) ? 2 : 1;
}

double pow(double x, double y) {
    if (y == 0 || x == 1)
        return 1.0;
    if (isnan(x) || isnan(y))
        return x + y;
    int kind = isinf(y) ? 1 : integer_kind(y);
    if (x == 0) {
        if (y < 0)                             /* a pole; glibc leaves errno alone */
            return kind == 2 ? 1.0 / x : INFINITY;
        return kind == 2 ? x : 0.0;
    }
    if (isinf(y)) {
        double a = fabs(x);
        if (a == 1)
            return 1.0;
        return (a > 1) == (y > 0) ? INFINITY : 0.0;
    }
    if (isinf(x)) {
        if (x > 0)
            return y > 0 ? INFINITY : 0.0;
        double mag = y > 0 ? INFINITY : 0.0;
        return kind == 2 ? -mag : mag;
    }
    int negate = 0;
    if (x < 0) {
        if (kind == 0)
            return __hsx_math_domain();
        negate = kind == 2;
        x = -x;
    }
    if (fabs(y) > 0x1p64) {                    /* far beyond the range either way */
        double r = (x > 1) == (y > 0) ? INFINITY : 0.0;
        errno = ERANGE;
        return negate ? -r : r;
    }
    dd_t z = dd_mul_d(__hsx_log_dd(x), y);
    double r = __hsx_exp_round(z);
    return negate ? -r : r;
}

float powf(float x, float y) { return (float)pow(x, y); }

/* x^n by repeated squaring: what __builtin_powi (llvm.powi) calls, as libgcc computes it
 * (the same products in the same order). */
#define POWI(name, T)                                                   \
    T name(T x, int m) {                                                \
        unsigned n = m < 0 ? 0u - (unsigned)m : (unsigned)m;            \
        T y = n % 2 ? x : 1;                                            \
        while (n >>= 1) {                                               \
            x = x * x;                                                  \
            if (n % 2)                                                  \
                y = y * x;                                              \
        }                                                               \
        return m < 0 ? 1 / y : y;                                       \
    }

POWI(__powidf2, double)
POWI(__powisf2, float)
