/* fenv.h with one rounding mode and no exception flags: every call succeeds for the
 * empty set of exceptions and for FE_TONEAREST, and fails for anything else. */
#include <fenv.h>

int feclearexcept(int excepts) { return excepts != 0; }
int fegetexceptflag(fexcept_t *flags, int excepts) {
    *flags = 0;
    return excepts != 0;
}
int feraiseexcept(int excepts) { return excepts != 0; }
int fesetexceptflag(const fexcept_t *flags, int excepts) {
    (void)flags;
    return excepts != 0;
}
int fetestexcept(int excepts) {
    (void)excepts;
    return 0;
}
int fegetround(void) { return FE_TONEAREST; }
int fesetround(int mode) { return mode != FE_TONEAREST; }
int fegetenv(fenv_t *env) {
    env->__mode = FE_TONEAREST;
    return 0;
}
int feholdexcept(fenv_t *env) { return fegetenv(env); }
int fesetenv(const fenv_t *env) {
    (void)env;
    return 0;
}
int feupdateenv(const fenv_t *env) { return fesetenv(env); }
