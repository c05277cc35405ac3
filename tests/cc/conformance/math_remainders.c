/* Exact math.h results: remainders (fmod, remainder, remquo), fma (correctly rounded),
 * min/max/dim, classification macros, exact cases of sqrt/cbrt/hypot/pow, float versions. */
#include <stdio.h>
#include <math.h>
#include <errno.h>
#include <float.h>

static const double vals[] = { 0.0, -0.0, 1.5, -2.5, 3.75, 1e-310, -7.0, 0.5, 2.5, 1e300,
                               123456.789, -0.49999999999999994 };
#define N (int)(sizeof vals / sizeof vals[0])

int main(void) {
    for (int i = 0; i < N; i++) {
        for (int j = 2; j < 6; j++) {
            int q;
            double r = remquo(vals[i], vals[j], &q);
            printf("%a %a %a %a %d|", fmod(vals[i], vals[j]), remainder(vals[i], vals[j]), r,
                   fma(vals[i], vals[j], vals[(i + j) % N]), q & 7);
        }
        printf("\n");
    }
    printf("%a %a %a\n", fma(0x1p-53, 0x1p-53, 1.0), fma(1 + 0x1p-52, 1 - 0x1p-52, -1.0),
           fma(DBL_MAX, 2.0, -DBL_MAX));
    printf("%a %a %a %a %a\n", fmax(-0.0, 0.0), fmin(-0.0, 0.0), fmax(NAN, 3.0), fdim(5, 3),
           fdim(3, 5));
    printf("%a %a %a %a\n", copysign(3.0, -0.0), fabs(-INFINITY), sqrt(0x1p-1074), sqrt(2.0));
    printf("%a %a %a %a\n", hypot(3, 4), cbrt(27.0), pow(2, 10), pow(-2, 3));
    printf("%d %d %d %d %d\n", fpclassify(1.0) == FP_NORMAL, fpclassify(1e-310) == FP_SUBNORMAL,
           fpclassify(0.0) == FP_ZERO, fpclassify(INFINITY) == FP_INFINITE,
           fpclassify(NAN) == FP_NAN);
    printf("%d %d %d %d %d %d\n", isfinite(1.0) != 0, isinf(-INFINITY), isnan(NAN) != 0,
           isnormal(1e-310) != 0, signbit(-0.0) != 0, isunordered(NAN, 1.0) != 0);
    printf("%d %d %d %d\n", isgreater(2.0, 1.0), isless(NAN, 1.0), islessequal(1.0, 1.0),
           islessgreater(1.0, 2.0));
    printf("%a %a %a %a\n", floorf(-2.5f), roundf(2.5f), truncf(-0.7f), rintf(3.5f));
    printf("%a %a %a\n", fmodf(7.5f, 2.0f), nextafterf(1.0f, 2.0f), ldexpf(1.0f, -149));
    printf("%.17g %.17g %.17g\n", M_PI, M_E, M_SQRT2);
    return 0;
}
