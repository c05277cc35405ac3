/* The hosted headers a test program may include besides stdio/stdlib/string/math:
 * tgmath.h (the type each macro picks, and its values), signal.h (handlers called by
 * raise, SIG_IGN), locale.h (the "C" locale), fenv.h (to-nearest rounding; no
 * exception flags, so FE_ALL_EXCEPT may be 0 and the FE_<exception> macros absent). */
#include <fenv.h>
#include <limits.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <tgmath.h>

#define KIND(x) _Generic((x), float: "float", double: "double", long double: "long double", \
    float _Complex: "float complex", double _Complex: "double complex",                   \
    long double _Complex: "long double complex", int: "int", long: "long",                \
    long long: "long long", default: "other")

static volatile sig_atomic_t got;
static void on_signal(int sig) { got = sig; }

int main(void) {
    float f = 2.0f;
    double d = 2.0;
    long double ld = 2.0L;
    int i = 2;
    float complex fc = 1.0f + I;
    double complex dc = 1.0 + I;
    printf("%s %s %s %s\n", KIND(sqrt(f)), KIND(sqrt(d)), KIND(sqrt(ld)), KIND(sqrt(i)));
    printf("%s %s %s\n", KIND(sqrt(fc)), KIND(sqrt(dc)), KIND(fabs(fc)));
    printf("%s %s %s %s\n", KIND(pow(f, f)), KIND(pow(f, i)), KIND(pow(f, ld)), KIND(pow(fc, d)));
    printf("%s %s %s %s\n", KIND(atan2(f, f)), KIND(fma(f, f, d)), KIND(ldexp(f, 3)),
           KIND(creal(fc)));
    printf("%s %s %s %s\n", KIND(lround(f)), KIND(ilogb(d)), KIND(carg(d)),
           KIND(remquo(f, f, &i)));
    printf("%.7g %.7g %.7g %.7g\n", (double)sqrt(f), sqrt(d), (double)sin(f), cimag(exp(dc)));
    printf("%.7g %.7g %.7g %.7g\n", (double)pow(f, 0.5f), fabs(dc), (double)hypot(3.0f, 4.0f),
           (double)fmax(1, 2.5f));

    printf("%d\n", signal(SIGINT, on_signal) == SIG_DFL);
    int r = raise(SIGINT);
    printf("%d %d\n", r, got);
    signal(SIGINT, SIG_IGN);
    got = 0;
    r = raise(SIGINT);
    printf("%d %d\n", r, got);
    printf("%d\n", signal(SIGTERM, on_signal) == SIG_DFL);
    printf("%d\n", signal(SIGTERM, SIG_DFL) == on_signal);
    printf("%d\n", signal(SIGINT, SIG_DFL) == SIG_IGN);

    printf("%s %s %d\n", setlocale(LC_ALL, NULL), setlocale(LC_ALL, "C"),
           setlocale(LC_ALL, "xx_YY.bogus") == NULL);
    struct lconv *lc = localeconv();
    printf("[%s] [%s] [%s] %d %d\n", lc->decimal_point, lc->thousands_sep, lc->currency_symbol,
           lc->frac_digits == CHAR_MAX, lc->grouping[0]);

    printf("%d %d\n", fegetround() == FE_TONEAREST, fesetround(FE_TONEAREST));
    fenv_t env;
    int got_env = fegetenv(&env);
    int set_env = fesetenv(&env);
    printf("%d %d %d\n", got_env, set_env, feupdateenv(&env));
    printf("%d %d\n", feclearexcept(FE_ALL_EXCEPT), fetestexcept(0));
    return 0;
}
