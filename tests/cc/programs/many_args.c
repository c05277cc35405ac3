#include <stdio.h>
static int f7(int a, int b, int c, int d, int e, int f, int g) { return a + 2*b + 3*c + 4*d + 5*e + 6*f + 7*g; }
static long long f64(int a, long long b, int c, long long d, int e, long long f) { return a + b * 2 + c * 3 + d * 4 + e * 5 + f * 6; }
static int swapped(int a, int b, int c, int d, int e) { return a * 10000 + b * 1000 + c * 100 + d * 10 + e; }
static int forward(int a, int b, int c, int d, int e) { return swapped(e, d, c, b, a) + swapped(b, a, d, c, e); }
static double fd(double a, int b, double c, float d, long long e) { return a * b + c - d + (double)e; }
int main(void) {
    printf("%d\n", f7(1, 2, 3, 4, 5, 6, 7));
    printf("%lld\n", f64(1, 1LL << 33, 3, -5, 7, 1LL << 40));
    printf("%d\n", forward(1, 2, 3, 4, 5));
    printf("%f\n", fd(1.5, 3, 2.25, 0.5f, 100));
    return f7(1, 1, 1, 1, 1, 1, 1);
}
