/* math.h as programs use it: numerical integration, polar coordinates, statistics,
 * compound interest, trigonometric and hyperbolic identities.  Printed to 12
 * significant digits (the libraries agree far below that). */
#include <stdio.h>
#include <math.h>

static double simpson(double (*f)(double), double a, double b, int n) {
    double h = (b - a) / n, s = f(a) + f(b);
    for (int i = 1; i < n; i++)
        s += f(a + i * h) * (i % 2 ? 4 : 2);
    return s * h / 3;
}

static double gauss(double x) { return exp(-x * x / 2) / sqrt(2 * M_PI); }

int main(void) {
    printf("%.12g %.12g %.12g\n", simpson(sin, 0, M_PI, 100), simpson(gauss, -3, 3, 200),
           simpson(log1p, 0, 1, 50));
    double pts[][2] = { { 1, 1 }, { -2, 0.5 }, { 0, -3 }, { -1, -1 }, { 3e-5, 4e-5 } };
    for (int i = 0; i < 5; i++) {
        double r = hypot(pts[i][0], pts[i][1]), t = atan2(pts[i][1], pts[i][0]);
        printf("(%g, %g) -> r=%.12g theta=%.12g -> (%.12g, %.12g)\n", pts[i][0], pts[i][1], r,
               t, r * cos(t), r * sin(t));
    }
    double data[] = { 2.5, 3.75, 1.125, 9.5, 4.0, 6.25, 0.5, 7.875 };
    double mean = 0, var = 0;
    for (int i = 0; i < 8; i++)
        mean += data[i] / 8;
    for (int i = 0; i < 8; i++)
        var += pow(data[i] - mean, 2) / 7;
    printf("mean %.12g sd %.12g geo %.12g\n", mean, sqrt(var),
           exp((log(2.5) + log(3.75) + log(1.125) + log(9.5)) / 4));
    for (int years = 1; years <= 30; years += 7)
        printf("%d years: %.12g\n", years, 1000 * pow(1 + 0.05 / 12, 12 * years));
    for (double x = -2; x <= 2; x += 0.75) {
        printf("%5.2f %.12f %.12f %.12f %.12f\n", x, sin(x) * sin(x) + cos(x) * cos(x),
               tan(x) - sin(x) / cos(x), cosh(x) * cosh(x) - sinh(x) * sinh(x),
               tanh(x) - sinh(x) / cosh(x));
    }
    return 0;
}
