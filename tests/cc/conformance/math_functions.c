/* math.h as programs use it: the gamma and error functions, the float and long double
 * versions.  Printed to 12 (float: 6) significant digits. */
#include <stdio.h>
#include <math.h>

int main(void) {
    printf("%.12g %.12g %.12g %.12g\n", tgamma(5), tgamma(0.5) * tgamma(0.5), lgamma(100),
           erf(1) + erfc(1));
    float f = 0.3f;
    printf("%.6g %.6g %.6g %.6g %.6g %.6g\n", sinf(f), cosf(f), expf(f), logf(f), powf(f, 2.5f),
           sqrtf(f));
    printf("%.6g %.6g %.6g %.6g\n", atan2f(1.0f, -1.0f), hypotf(3e20f, 4e20f), erff(0.5f),
           tgammaf(4.5f));
    long double ld = 2.0L;
    printf("%.12Lg %.12Lg\n", sqrtl(ld), expl(ld));
    return 0;
}
