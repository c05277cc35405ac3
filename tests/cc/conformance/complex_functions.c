/* complex.h's elementary functions on a grid of points in every quadrant (on the axes
 * too, signed zeros included), and Annex G's special values (infinities, NaNs) where
 * the standard fixes the signs. */
#include <complex.h>
#include <math.h>
#include <stdio.h>

typedef double complex (*fn)(double complex);

static void part(double v) {
    if (isnan(v))
        printf(" nan");
    else
        printf(" %.12g", v);
}

static void show(const char *name, double complex z) {
    printf("  %-6s", name);
    part(creal(z));
    part(cimag(z));
    printf("\n");
}

#define FN(name) { #name, name }
static const struct { const char *name; fn f; } grid_fns[] = {
    FN(cexp), FN(clog), FN(csqrt), FN(csin), FN(ccos), FN(ctan), FN(csinh), FN(ccosh),
    FN(ctanh),
};
static const struct { const char *name; fn f; } special_fns[] = {
    FN(cexp), FN(clog), FN(csqrt), FN(cproj), FN(ctan), FN(ccosh), FN(ctanh),
};

int main(void) {
    const double axis[] = { 0.0, -0.0, 0.3, -0.7, 1, -1.5, 2.5, 1e-9, -12 };
    for (int i = 0; i < 81; i += 4) {
        double complex z = CMPLX(axis[i % 9], axis[i / 9]);
        printf("z = %g%+gi\n", creal(z), cimag(z));
        for (unsigned k = 0; k < sizeof grid_fns / sizeof grid_fns[0]; k++)
            show(grid_fns[k].name, grid_fns[k].f(z));
        show("cpow", cpow(z, CMPLX(0.5, 1.5)));
        printf("  cabs %.12g carg %.12g\n", cabs(z), carg(z));
        float complex f = (float complex)z;
        printf("  float %.5g %.5g %.5g %.5g\n", crealf(csqrtf(f)), cimagf(cexpf(f)),
               crealf(clogf(f + 1)), cabsf(f));
    }
    const double special[] = { 0.0, -0.0, 2, -2, INFINITY, -INFINITY, NAN };
    for (unsigned k = 0; k < sizeof special_fns / sizeof special_fns[0]; k++) {
        printf("%s:", special_fns[k].name);
        for (int i = 0; i < 49; i++) {
            double complex r = special_fns[k].f(CMPLX(special[i % 7], special[i / 7]));
            part(creal(r));
            part(cimag(r));
            printf(i % 7 == 6 ? "\n" : " |");
        }
    }
    return 0;
}
