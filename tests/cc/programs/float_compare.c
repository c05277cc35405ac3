#include <stdio.h>
static int classify(double a, double b) { return (a < b) + 2 * (a <= b) + 4 * (a > b) + 8 * (a >= b) + 16 * (a == b) + 32 * (a != b); }
static int fclassify(float a, float b) { return (a < b) + 2 * (a <= b) + 4 * (a > b) + 8 * (a >= b) + 16 * (a == b) + 32 * (a != b); }
int main(void) {
    volatile double zero = 0.0;
    double nan = zero / zero;
    double inf = 1.0 / zero;
    double vals[] = {0.0, -0.0, 1.0, -1.0, 1e300, -1e-300, inf, -inf, nan};
    for (int i = 0; i < 9; i++) {
        for (int j = 0; j < 9; j++) printf("%d,", classify(vals[i], vals[j]));
        printf(" %d\n", fclassify((float)vals[i], 0.5f));
    }
    double m = vals[0];
    for (int i = 1; i < 6; i++) if (vals[i] > m) m = vals[i];
    printf("%g %d\n", m, nan != nan);
    return 0;
}
