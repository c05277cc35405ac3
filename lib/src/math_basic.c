/* The exact functions of math.h: rounding to integers, splitting and scaling, neighbours,
 * min/max, classification helpers; double and float.  All are exact (no rounding error)
 * except scalbn/ldexp into the subnormal range, which round once. */
#include <limits.h>
#include "math_impl.h"

double __hsx_math_domain(void) {
    errno = EDOM;
    return __builtin_nan("");
}

double __hsx_math_range(double value) {
    errno = ERANGE;
    return value;
}

#undef fabs
#undef copysign

double fabs(double x) { return asdouble(asuint64(x) & ~(1ull << 63)); }
float fabsf(float x) { return asfloat(asuint(x) & 0x7FFFFFFFu); }

double copysign(double x, double y) {
    return asdouble((asuint64(x) & ~(1ull << 63)) | (asuint64(y) & (1ull << 63)));
}
float copysignf(float x, float y) {
    return asfloat((asuint(x) & 0x7FFFFFFFu) | (asuint(y) & 0x80000000u));
}

double trunc(double x) {
    uint64_t u = asuint64(x);
    int e = (int)((u >> 52) & 0x7FF) - 1023;
    if (e >= 52)
        return x;                              /* integral, inf or NaN */
    if (e < 0)
        return asdouble(u & (1ull << 63));     /* +-0 */
    return asdouble(u & ~((1ull << (52 - e)) - 1));
}

double floor(double x) {
    double t = trunc(x);
    return t > x ? t - 1 : t;
}

double ceil(double x) {
    double t = trunc(x);
    return t < x ? t + 1 : t;
}

/* Halfway cases away from zero. */
double round(double x) {
    double t = trunc(x);
    if (fabs(x - t) >= 0.5)
        t += copysign(1.0, x);
    return t;
}

/* To nearest, ties to even (the rounding mode is always to nearest). */
double rint(double x) {
    const double big = 0x1p52;
    uint64_t u = asuint64(x);
    if (((u >> 52) & 0x7FF) >= 1023 + 52)
        return x;
    double a = fabs(x);
    double r = (a + big) - big;
    return copysign(r, x);
}

double nearbyint(double x) { return rint(x); }

/* C23: halfway cases to even, which is rint in the only rounding mode. */
double roundeven(double x) { return rint(x); }

long lrint(double x) { return (long)rint(x); }
long long llrint(double x) { return (long long)rint(x); }
long lround(double x) { return (long)round(x); }
long long llround(double x) { return (long long)round(x); }

double modf(double x, double *ip) {
    double t = trunc(x);
    *ip = t;
    if (isinf(x))
        return copysign(0.0, x);
    return copysign(x - t, x);
}

double frexp(double x, int *e) {
    uint64_t u = asuint64(x);
    int field = (int)((u >> 52) & 0x7FF);
    if (field == 0) {
        if ((u << 1) == 0) {
            *e = 0;
            return x;
        }
        x *= 0x1p64;                           /* subnormal: make it normal */
        u = asuint64(x);
        field = (int)((u >> 52) & 0x7FF) - 64;
    } else if (field == 0x7FF) {
        *e = 0;
        return x;
    }
    *e = field - 1022;
    return asdouble((u & ~(0x7FFull << 52)) | (1022ull << 52));
}

/* x * 2^n with a single rounding (into the subnormal range) or overflow. */
double scalbn(double x, int n) {
    if (n > 1023) {
        x *= 0x1p1023;
        n -= 1023;
        if (n > 1023) {
            x *= 0x1p1023;
            n -= 1023;
            if (n > 1023)
                n = 1023;
        }
    } else if (n < -1022) {
        x *= 0x1p-1022 * 0x1p53;               /* keep 53 bits until the last step */
        n += 1022 - 53;
        if (n < -1022) {
            x *= 0x1p-1022 * 0x1p53;
            n += 1022 - 53;
            if (n < -1022)
                n = -1022;
        }
    }
    double r = x * pow2(n);
    if (x != 0 && !isinf(x) && (isinf(r) || r == 0))
        errno = ERANGE;
    return r;
}

double ldexp(double x, int n) { return scalbn(x, n); }
double scalbln(double x, long n) {
    return scalbn(x, n > INT_MAX ? INT_MAX : n < INT_MIN ? INT_MIN : (int)n);
}

int ilogb(double x) {
    uint64_t u = asuint64(x);
    int field = (int)((u >> 52) & 0x7FF);
    if (field == 0) {
        if ((u << 1) == 0) {
            errno = EDOM;
            return FP_ILOGB0;
        }
        int e = -1023;
        for (u <<= 12; !(u >> 63); u <<= 1)
            e--;
        return e;
    }
    if (field == 0x7FF) {
        errno = EDOM;
        return (u << 12) ? FP_ILOGBNAN : INT_MAX;
    }
    return field - 1023;
}

double logb(double x) {
    if (x == 0) {
        errno = ERANGE;
        return -1.0 / fabs(x);
    }
    if (!isfinite(x))
        return x * x;
    return (double)ilogb(x);
}

double nextafter(double x, double y) {
    if (isnan(x) || isnan(y))
        return x + y;
    if (x == y)
        return y;
    uint64_t u = asuint64(x);
    if (x == 0)
        u = (asuint64(y) & (1ull << 63)) | 1;
    else if ((x < y) == (x > 0))
        u++;
    else
        u--;
    double r = asdouble(u);
    if (isinf(r) || exponent_field(r) == 0)
        errno = ERANGE;
    return r;
}

double nexttoward(double x, long double y) { return nextafter(x, (double)y); }

double fdim(double x, double y) {
    if (isnan(x) || isnan(y))
        return x + y;
    return x > y ? x - y : 0.0;
}

double fmax(double x, double y) {
    if (isnan(x))
        return y;
    if (isnan(y))
        return x;
    if (x == y)                                /* +0 is larger than -0 */
        return signbit(x) ? y : x;
    return x > y ? x : y;
}

double fmin(double x, double y) {
    if (isnan(x))
        return y;
    if (isnan(y))
        return x;
    if (x == y)
        return signbit(x) ? x : y;
    return x < y ? x : y;
}

double nan(const char *tag) {
    (void)tag;
    return __builtin_nan("");
}

/* -- float: the same through double, where double holds the result exactly ----------- */

float truncf(float x) { return (float)trunc(x); }
float floorf(float x) { return (float)floor(x); }
float ceilf(float x) { return (float)ceil(x); }
float roundf(float x) { return (float)round(x); }
float rintf(float x) { return (float)rint(x); }
float nearbyintf(float x) { return (float)rint(x); }
float roundevenf(float x) { return (float)rint(x); }
long lrintf(float x) { return (long)rint(x); }
long long llrintf(float x) { return (long long)rint(x); }
long lroundf(float x) { return (long)round(x); }
long long llroundf(float x) { return (long long)round(x); }

float modff(float x, float *ip) {
    double i;
    float f = (float)modf(x, &i);
    *ip = (float)i;
    return f;
}

float frexpf(float x, int *e) { return (float)frexp(x, e); }

float scalbnf(float x, int n) {
    if (n > 300)
        n = 300;
    if (n < -300)
        n = -300;
    float r = (float)scalbn(x, n);             /* exact in double, one rounding to float */
    if (x != 0 && !isinf(x) && (isinf(r) || r == 0))
        errno = ERANGE;
    return r;
}

float ldexpf(float x, int n) { return scalbnf(x, n); }
float scalblnf(float x, long n) { return scalbnf(x, n > 300 ? 300 : n < -300 ? -300 : (int)n); }
int ilogbf(float x) { return ilogb(x); }
float logbf(float x) { return (float)logb(x); }

float nextafterf(float x, float y) {
    if (isnan(x) || isnan(y))
        return x + y;
    if (x == y)
        return y;
    uint32_t u = asuint(x);
    if (x == 0)
        u = (asuint(y) & 0x80000000u) | 1;
    else if ((x < y) == (x > 0))
        u++;
    else
        u--;
    float r = asfloat(u);
    if (isinf(r) || (asuint(r) & 0x7F800000u) == 0)
        errno = ERANGE;
    return r;
}

float nexttowardf(float x, long double y) {
    if (isnan(x) || isnan(y))
        return (float)(x + y);
    if ((double)x == (double)y)
        return (float)y;
    return nextafterf(x, (double)x < (double)y ? INFINITY : -INFINITY);
}

float fdimf(float x, float y) { return (float)fdim(x, y); }
float fmaxf(float x, float y) { return (float)fmax(x, y); }
float fminf(float x, float y) { return (float)fmin(x, y); }
float nanf(const char *tag) {
    (void)tag;
    return __builtin_nanf("");
}
