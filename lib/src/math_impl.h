/* Shared by the math library's sources: bit access, double-double arithmetic, the
 * internal kernels and the tables of math_data.c.
 *
 * Accuracy comes from double-double ("dd") intermediates: a value hi + lo with
 * |lo| <= ulp(hi)/2 carries about 106 bits.  The kernels compute their results in dd
 * and round once at the end, so most functions are within about half an ulp of the
 * exact result.  Products are split with Veltkamp/Dekker (no fused multiply-add), and
 * the library is compiled with contraction off so `a * b + c` stays two roundings. */
#ifndef HSX_MATH_IMPL_H
#define HSX_MATH_IMPL_H
#pragma STDC FP_CONTRACT OFF
#include <errno.h>
#include <math.h>
#include <stdint.h>

/* Inline bit operations instead of calls (math_basic.c defines the functions). */
#define fabs(x) __builtin_fabs(x)
#define copysign(x, y) __builtin_copysign(x, y)

static inline uint64_t asuint64(double x) {
    union { double f; uint64_t u; } v = { x };
    return v.u;
}
static inline double asdouble(uint64_t u) {
    union { uint64_t u; double f; } v = { u };
    return v.f;
}
static inline uint32_t asuint(float x) {
    union { float f; uint32_t u; } v = { x };
    return v.u;
}
static inline float asfloat(uint32_t u) {
    union { uint32_t u; float f; } v = { u };
    return v.f;
}
/* The biased exponent field of x (0 for zero and subnormals, 0x7FF for inf/NaN). */
static inline int exponent_field(double x) { return (int)((asuint64(x) >> 52) & 0x7FF); }

/* 2^n for -1022 <= n <= 1023. */
static inline double pow2(int n) { return asdouble((uint64_t)(n + 1023) << 52); }

/* -- double-double --------------------------------------------------------------------- */

typedef struct { double hi, lo; } dd_t;

static inline dd_t dd(double hi, double lo) { dd_t r = { hi, lo }; return r; }

/* a + b exactly, |a| >= |b| (or a == 0). */
static inline dd_t fast_two_sum(double a, double b) {
    double s = a + b;
    return dd(s, b - (s - a));
}

/* a + b exactly. */
static inline dd_t two_sum(double a, double b) {
    double s = a + b;
    double bb = s - a;
    return dd(s, (a - (s - bb)) + (b - bb));
}

/* Out of line (math_dd.c): they are used everywhere and code space is 64 KiB. */
dd_t two_prod(double a, double b);              /* a * b exactly (|a|, |b| < 2^995) */
dd_t dd_add(dd_t a, dd_t b);
dd_t dd_add_d(dd_t a, double b);
dd_t dd_mul(dd_t a, dd_t b);
dd_t dd_mul_d(dd_t a, double b);
dd_t dd_div(dd_t a, dd_t b);

static inline dd_t dd_neg(dd_t a) { return dd(-a.hi, -a.lo); }

static inline dd_t dd_from(const double pair[2]) { return dd(pair[0], pair[1]); }

/* -- internal kernels -------------------------------------------------------------------- */

/* exp(x.hi + x.lo) = 2^*e * (result), result in about [0.7, 1.5), |x.hi| < 746. */
dd_t __hsx_exp_dd(dd_t x, int *e);
/* exp(x.hi + x.lo) rounded, with overflow and subnormal results handled. */
double __hsx_exp_round(dd_t x);
/* (y.hi + y.lo) * 2^e rounded once (subnormal results too), y > 0. */
double __hsx_scale_round(dd_t y, int e);
/* log(x), x positive finite (subnormals too). */
dd_t __hsx_log_dd(double x);
/* sqrt(a.hi + a.lo), a >= 0. */
dd_t __hsx_sqrt_dd(dd_t a);
/* x = k * pi/2 + r, |r| <= pi/4 (about): returns k mod 4, r in *r. */
int __hsx_rem_pio2(double x, dd_t *r);
/* sin and cos of r, |r| <= pi/4 + a little. */
dd_t __hsx_sin_dd(dd_t r);
dd_t __hsx_cos_dd(dd_t r);
/* atan(n / d), n, d >= 0 and not both zero: in [0, pi/2]. */
dd_t __hsx_atan_ratio(dd_t n, dd_t d);
/* lgamma(x) for x > 0, as dd. */
dd_t __hsx_lgamma_pos(double x);

/* errno for the math functions (math_errhandling is MATH_ERRNO). */
double __hsx_math_domain(void);               /* EDOM, returns NaN */
double __hsx_math_range(double value);        /* ERANGE, returns value */

/* -- tables (math_data.c) -------------------------------------------------------------- */

extern const double __hsx_exp2_table[64][2];
extern const double __hsx_log_table[97][3];
extern const double __hsx_atan_table[65][2];
extern const unsigned __hsx_two_over_pi[50];
extern const double __hsx_ln2[2], __hsx_pi[2], __hsx_pio2[2], __hsx_inv_ln2[2],
    __hsx_log10_2[2], __hsx_ln10[2], __hsx_inv_ln10[2], __hsx_two_over_sqrtpi[2],
    __hsx_inv_sqrtpi[2], __hsx_half_log_2pi[2], __hsx_euler[2];
extern const double __hsx_lgamma1_coef[38], __hsx_lgamma2_coef[38], __hsx_stirling_coef[11];
#endif
