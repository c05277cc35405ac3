/* The math builtins clang turns into LLVM intrinsics (llvm.round, llvm.lround,
 * llvm.minnum, llvm.powi, llvm.ldexp, ...) in float and double: calls of the library. */
#include <stdio.h>
volatile double vx = 2.5, vy = -1.75; volatile float fx = 2.5f;
int main(void) {
    double x = vx, y = vy; float f = fx;
    printf("%g %g %g %g\n", __builtin_round(y), __builtin_rint(x), __builtin_nearbyint(y), __builtin_roundeven(x));
    printf("%g %g %g\n", __builtin_roundf(f), __builtin_rintf(-f), __builtin_roundevenf(f + 1));
    printf("%ld %lld %ld %lld\n", __builtin_lround(x), __builtin_llround(y), __builtin_lrint(x), __builtin_llrint(-x));
    printf("%ld %lld\n", __builtin_lroundf(f), __builtin_llrintf(f));
    printf("%g %g %g %g\n", __builtin_fmin(x, y), __builtin_fmax(x, y), __builtin_fminf(f, 1), __builtin_fmaxf(f, 9));
    printf("%g %g %g %g\n", __builtin_powi(x, 5), __builtin_powi(x, -3), __builtin_powif(f, 7), __builtin_powi(y, 0));
    printf("%g %g %g\n", __builtin_ldexp(x, 10), __builtin_ldexpf(f, -3), __builtin_pow(x, y));
    printf("%.10g %.10g %.10g %.10g\n", __builtin_exp(x), __builtin_log(x), __builtin_sin(x), __builtin_cosf(f));
    return 0;
}
