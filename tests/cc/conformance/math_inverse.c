/* math.h as programs use it: inverse trigonometric and hyperbolic functions, logarithms
 * and exponentials.  Printed to 12 significant digits. */
#include <stdio.h>
#include <math.h>

int main(void) {
    printf("%.12g %.12g %.12g %.12g\n", asin(0.5) * 6, acos(-1), atan(1) * 4, cbrt(-64));
    printf("%.12g %.12g %.12g %.12g\n", asinh(1), acosh(2), atanh(0.5), expm1(1e-10));
    printf("%.12g %.12g %.12g %.12g\n", log2(1024), log10(0.001), exp2(-3.5), log(M_E));
    return 0;
}
