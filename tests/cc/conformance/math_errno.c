/* errno and special values of math.h: domain errors (EDOM), poles and overflow or
 * underflow (ERANGE), and the cases C99 Annex F fixes (NaN signs are left out: C does
 * not define them). */
#include <stdio.h>
#include <math.h>
#include <errno.h>

static void check_errno(const char *what, double r) {
    if (isnan(r))
        printf("%s = nan errno=%s\n", what, errno == EDOM ? "EDOM" : errno == ERANGE ? "ERANGE" : "0");
    else
        printf("%s = %a errno=%s\n", what, r, errno == EDOM ? "EDOM" : errno == ERANGE ? "ERANGE" : "0");
    errno = 0;
}

int main(void) {
    errno = 0;
    check_errno("sqrt(-1)", sqrt(-1.0));
    check_errno("log(0)", log(0.0));
    check_errno("log(-1)", log(-1.0));
    check_errno("exp(1000)", exp(1000.0));
    check_errno("exp(-1000)", exp(-1000.0));
    check_errno("pow(0,-1)", pow(0.0, -1.0));
    check_errno("pow(-2,0.5)", pow(-2.0, 0.5));
    check_errno("pow(10,400)", pow(10.0, 400.0));
    check_errno("acos(2)", acos(2.0));
    check_errno("atanh(1)", atanh(1.0));
    check_errno("fmod(1,0)", fmod(1.0, 0.0));
    check_errno("log1p(-1)", log1p(-1.0));
    check_errno("cosh(1000)", cosh(1000.0));
    check_errno("tgamma(-1)", tgamma(-1.0));
    check_errno("lgamma(0)", lgamma(0.0));
    check_errno("sin(inf)", sin(INFINITY));
    check_errno("pow(1,nan)", pow(1.0, NAN));
    check_errno("pow(nan,0)", pow(NAN, 0.0));
    check_errno("atan2(0,-0)", atan2(0.0, -0.0));
    check_errno("hypot(inf,nan)", hypot(INFINITY, NAN));
    return 0;
}
