/* Classification macros of math.h on doubles and floats of every class (they compile to
 * llvm.is.fpclass and fcmp: the back end tests the bits). */
#include <stdio.h>
#include <math.h>
#include <float.h>
static volatile double dv[] = { 0.0, -0.0, 1.5, -2.5, 1e-310, -1e-310, 1e308, 1.0/0.0, -1.0/0.0, 0.0/0.0, DBL_MIN, DBL_TRUE_MIN };
static volatile float fv[] = { 0.0f, -0.0f, 1.5f, -2.5f, 1e-40f, -1e-40f, 1e38f, 1.0f/0.0f, -1.0f/0.0f, 0.0f/0.0f, FLT_MIN };
int main(void) {
    for (unsigned i = 0; i < sizeof dv / sizeof dv[0]; i++) {
        double x = dv[i];
        printf("%d %d %d %d %d %d %d|", fpclassify(x), isfinite(x) != 0, isinf(x), isnan(x) != 0, isnormal(x) != 0, signbit(x) != 0, isless(x, 1.0));
    }
    printf("\n");
    for (unsigned i = 0; i < sizeof fv / sizeof fv[0]; i++) {
        float x = fv[i];
        printf("%d %d %d %d %d %d %d|", fpclassify(x), isfinite(x) != 0, isinf(x), isnan(x) != 0, isnormal(x) != 0, signbit(x) != 0, isunordered(x, 1.0f));
    }
    printf("\n");
    return 0;
}
