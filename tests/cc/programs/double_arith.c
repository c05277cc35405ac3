#include <stdio.h>
int main(void) {
    volatile double a = 1.1, b = 2.2, c = 1e-300, d = 1.7976931348623157e308;
    printf("%.17g %.17g %.17g %.17g\n", a + b, a * b, b / a, a - b);
    printf("%g %g %g %g\n", c * c, c / 1e10, d * 2, -d * 2);
    double pi = 0;
    for (int k = 0; k < 1000; k++) pi += (k % 2 ? -4.0 : 4.0) / (2 * k + 1);
    printf("%.12f\n", pi);
    double x = 10;
    for (int i = 0; i < 8; i++) x = 0.5 * (x + 10 / x);
    printf("%.15f %lld %d\n", x, (long long)(x * 1e12), (int)(-x));
    printf("%d %d %d\n", a < b, a >= b, (a + b) == 3.3);
    double tiny = 4.9406564584124654e-324;
    printf("%g %g\n", tiny, tiny / 2);
    return (int)pi;
}
