#include <stdio.h>
int main(void) {
    double v[] = {0.5, 1.5, 2.5, 0.125, 0.375, 1e15, 1e16, 123456789.987654321, 9.9999999, 0.1, 0.2, 0.3,
                  1.0 / 3, 2.0 / 3, 1e-7, 5e-324, 1e308, 0.000999999, 999999.5, 4.35};
    for (int i = 0; i < 20; i++)
        printf("%.0f %.1f %.2f %f %.10e %g %.15g\n", v[i], v[i], v[i], v[i], v[i], v[i], v[i]);
    printf("%.20f\n", 0.1);
    printf("%.30f\n", 1e-20);
    printf("%f\n", 1e20);
    return 0;
}
