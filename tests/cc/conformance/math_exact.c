/* math.h functions whose results are exact (so any correct libm prints the same bits):
 * splitting and scaling, rounding to integers, neighbours. */
#include <stdio.h>
#include <math.h>
#include <errno.h>
#include <float.h>

static const double vals[] = { 0.0, -0.0, 1.5, -2.5, 3.75, 1e-310, -7.0, 0.5, 2.5, 1e300,
                               123456.789, -0.49999999999999994 };
#define N (int)(sizeof vals / sizeof vals[0])

int main(void) {
    for (int i = 0; i < N; i++) {
        double x = vals[i], ip;
        int e;
        double m = frexp(x, &e);
        double f = modf(x, &ip);
        printf("%a: frexp %a %d modf %a %a ilogb %d logb %a\n", x, m, e, f, ip,
               x == 0 ? 0 : ilogb(x), x == 0 ? 0.0 : logb(x));
        printf("  floor %a ceil %a trunc %a round %a rint %a nearbyint %a lround %ld llrint %lld\n",
               floor(x), ceil(x), trunc(x), round(x), rint(x), nearbyint(x),
               fabs(x) < 1e15 ? lround(x) : 0L, fabs(x) < 1e15 ? llrint(x) : 0LL);
        printf("  ldexp %a %a scalbn %a next %a %a\n", ldexp(x, 10), ldexp(x, -1070),
               scalbn(x, 3), nextafter(x, INFINITY), nextafter(x, -INFINITY));
    }
    return 0;
}
