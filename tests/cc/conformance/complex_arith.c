/* Complex arithmetic (C99 _Complex, complex.h): the four operations in float, double
 * and long double, the runtime's products and quotients (Smith's quotients bit for bit
 * like libgcc's, Annex G's infinities recovered from NaN results), conversions,
 * complex values in structs, as arguments and results, and through varargs. */
#include <complex.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>

static void show(const char *what, double complex z) {
    printf("%-10s", what);
    double part[2] = { creal(z), cimag(z) };
    for (int k = 0; k < 2; k++)
        isnan(part[k]) ? printf(" nan") : printf(" %a", part[k]);
    printf("\n");
}

struct pair { double complex a; float complex b; char tag; };

static struct pair swap(struct pair p) {
    struct pair r = { p.b, p.a, (char)(p.tag + 1) };
    return r;
}

static double complex sum(int n, ...) {
    va_list ap;
    va_start(ap, n);
    double complex t = 0;
    for (int i = 0; i < n; i++)
        t += va_arg(ap, double complex);
    va_end(ap);
    return t;
}

static double complex horner(const double complex *c, int n, double complex z) {
    double complex r = 0;
    for (int i = n - 1; i >= 0; i--)
        r = r * z + c[i];
    return r;
}

int main(void) {
    volatile double zero = 0.0;
    double complex a = 1.5 + 2.25 * I, b = CMPLX(-0.75, 4.0);
    show("a+b", a + b);
    show("a-b", a - b);
    show("a*b", a * b);
    show("a/b", a / b);
    show("b/a", b / a);
    show("a*3", a * 3);
    show("a/2i", a / (2 * I));
    show("-a", -a);
    show("conj a", conj(a));
    double complex q[] = { 2 + 3 * I, 4 - 5 * I, 1e300 + 1e300 * I, 1e-300 + 3e300 * I,
                           0.1 + 0.7 * I, 3 + 1e-310 * I, -7 + 0.5 * I, 1e-320 + 1e-320 * I };
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 8; j += 3) {
            char name[16];
            snprintf(name, sizeof name, "q%d/q%d", i, j);
            show(name, q[i] / q[j]);
        }
    float complex fa = 1.5f - 0.5f * I, fb = 0.25f + 3.0f * I;
    float complex fq = fa / fb, fp = fa * fb;
    printf("float %a %a %a %a\n", crealf(fq), cimagf(fq), crealf(fp), cimagf(fp));
    long double complex la = 3.0L + 4.0L * I;
    la = la * (1 - 2 * I) / (1 + la / (3 + 4 * I));
    printf("long double %a %a\n", (double)creall(la), (double)cimagl(la));
    double inf = 1 / zero, nan = zero / zero;
    show("inf*1", CMPLX(inf, nan) * CMPLX(1, 1));
    show("(1+i)*inf", CMPLX(1, 1) * CMPLX(nan, inf));
    show("1/0", CMPLX(1, 1) / CMPLX(zero, zero));
    show("inf/2", CMPLX(inf, nan) / CMPLX(2, 3));
    show("1/inf", CMPLX(1, 2) / CMPLX(inf, nan));
    show("big*big", CMPLX(1e300, 1e300) * CMPLX(1e300, -1e300));
    double complex r = 3.0;
    r += 1 * I;
    r *= r;
    r /= 2 - I;
    r -= 0.5;
    show("ops", r);
    printf("%d %d %d\n", a == a, a == b, (double complex)2.0 == 2.0);
    printf("%g %d %d\n", (double)a, (int)creal(b), (_Bool)(0.0 * I));
    struct pair p = swap((struct pair){ a, fb, 'x' });
    printf("%g %g %g %g %c\n", creal(p.a), cimag(p.a), crealf(p.b), cimagf(p.b), p.tag);
    show("varargs", sum(3, a, b, CMPLX(0.5, -0.5)));
    const double complex poly[] = { 1, -2 * I, 0.5, 1 + I };
    show("horner", horner(poly, 4, 0.5 - 0.25 * I));
    double complex w = 1;
    for (int k = 0; k < 12; k++)
        w *= CMPLX(0.8660254037844386, 0.5);
    show("rotate", w);
    printf("%d %d\n", (int)sizeof(double complex), (int)sizeof(float complex));
    return 0;
}
