/* float and double everywhere: arguments in registers and on the stack, returns,
 * struct fields, arrays, globals, conversions, compares, and printf %e %g %a %f. */
#include <stdio.h>

struct sample { float f; double d; char tag; float g[3]; };
static float gf = 1.5f;
static double gd[4] = { 0.1, 0.2, 0.3, 0.4 };

static double many(double a, float b, int c, double d, float e, double f, float g, double h) {
    return a + b * 2 + c * 3 + d * 4 + e * 5 + f * 6 + g * 7 + h * 8;
}
static float fmix(float a, float b) { return a * b - a / b; }
static struct sample make(float f, double d) {
    struct sample s = { f, d, 's', { f, (float)d, f + (float)d } };
    return s;
}
static double avg(const double *v, int n) {
    double t = 0;
    for (int i = 0; i < n; i++)
        t += v[i];
    return t / n;
}

int main(void) {
    printf("%.6f\n", many(1.0, 2.0f, 3, 4.0, 5.0f, 6.0, 7.0f, 8.0));
    printf("%.6f %.6e\n", fmix(3.0f, 4.0f), (double)fmix(1e-3f, 7.0f));
    struct sample s = make(2.5f, -0.125);
    printf("%c %g %g %g %g %g\n", s.tag, s.f, s.d, s.g[0], s.g[1], s.g[2]);
    printf("%.17g %.9g\n", avg(gd, 4), (double)gf);
    printf("%e %E %g %G\n", 12345.678, 0.000123, 1e-10, 1e20);
    printf("%a %A %.3a\n", 1.0, 255.5, 1.0 / 3);
    printf("%f %.0f %.1f %10.3f|%-10.2e|%+g\n", 2.5, 2.5, 0.05, 3.14159, 1234.5, 1.0);
    float fs[5] = { -1.5f, 0.0f, 1e30f, 1e-30f, 3.0f };
    for (int i = 0; i < 5; i++)
        printf("%d %u %.3g|", fs[i] > 1e9f ? -1 : (int)fs[i],
               (unsigned)(fs[i] < 0 ? 0 : fs[i] > 4e9f ? 0 : fs[i]), (double)fs[i]);
    printf("\n");
    double z = 0.0, nz = -0.0, inf = 1.0 / z, nan = z / z;
    printf("%g %g %g %g %d %d %d\n", z, nz, inf, -inf, nan != nan, inf > 1e308, nz == z);
    int i = -7;
    unsigned u = 4000000000u;
    long long ll = -9000000000000LL;
    printf("%.1f %.1f %.1f %.1f\n", (double)i, (double)u, (double)ll, (float)u / 2);
    double x = 1.0;
    int steps = 0;
    while (x / 2 > 0) {
        x /= 2;
        steps++;
    }
    printf("%d %g %a\n", steps, x, x);
    return 0;
}
