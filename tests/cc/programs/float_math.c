#include <stdio.h>
static double my_sqrt(double x) { double g = x > 1 ? x / 2 : 1; for (int i = 0; i < 30; i++) g = 0.5 * (g + x / g); return g; }
static double my_exp(double x) { double term = 1, sum = 1; for (int n = 1; n < 30; n++) { term *= x / n; sum += term; } return sum; }
static float lerp(float a, float b, float t) { return a + (b - a) * t; }
int main(void) {
    printf("%.12f %.12f %.12f\n", my_sqrt(2), my_sqrt(1e10), my_exp(1));
    for (int i = 0; i <= 4; i++) printf("%.4f ", lerp(-1.0f, 3.0f, i / 4.0f));
    printf("\n");
    double c = 0; for (int i = 0; i < 100; i++) c += 0.01;
    printf("%.17g %d\n", c, c == 1.0);
    return (int)my_exp(3);
}
