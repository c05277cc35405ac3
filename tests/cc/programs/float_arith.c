#include <stdio.h>
int main(void) {
    volatile float a = 1.25f, b = -3.5f, c = 1e-3f, big = 3.0e38f;
    printf("%f %f %f %f\n", a + b, a - b, a * b, a / b);
    printf("%.9g %.9g %.9g\n", c * c, c / 7.0f, (a + c) - a);
    printf("%g %g %g\n", big * 10.0f, -big * 10.0f, 1.0f / (big * 10.0f));
    float s = 0;
    for (int i = 1; i <= 100; i++) s += 1.0f / (float)i;
    printf("%.7f\n", s);
    float x = 2.0f;
    for (int i = 0; i < 5; i++) x = x - (x * x - 2.0f) / (2.0f * x);
    printf("%.8f %d %d\n", x, (int)(x * 1000), (int)-2.7f);
    printf("%d %d %d %d\n", a < b, a > b, a == 1.25f, b != b);
    return (int)(s * 10);
}
