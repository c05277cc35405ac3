/* long double: arithmetic, conversions, arguments, varargs and printf's L modifier
 * (HSX's long double is IEEE double, so only values a double holds exactly, or
 * printed to at most 15 significant digits, agree with an x86 host). */
#include <stdio.h>
#include <float.h>

static long double half(long double x) { return x / 2; }
static long double poly(long double x) { return (x * x - 3 * x + 2.25L) / 4; }
struct holder { char c; long double v; };

int main(void) {
    long double a = 1.25L, b = 3.0L;
    long double c = a * b + half(b);
    printf("%.3Lf %Lg %.4Le\n", c, c, c);
    printf("%.10Lg\n", poly(1.5L));
    struct holder h = { 'h', 0.1L };
    printf("%c %.15Lg\n", h.c, h.v * 10);
    double d = (double)c;
    long double back = d;
    int i = (int)(back * 4);
    long long ll = (long long)(back * 1e6L);
    printf("%d %lld %d\n", i, ll, back == c);
    long double acc = 0;
    for (int k = 1; k <= 10; k++)
        acc += 1.0L / (k * k);
    printf("%.12Lf\n", acc);
    printf("%d\n", LDBL_MANT_DIG >= DBL_MANT_DIG);
    return 0;
}
