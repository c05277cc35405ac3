/* double and 64-bit values under register pressure: the float and 64-bit instructions' register
 * pairs spilled, reloaded and live across calls; loop-carried values; 64-bit compares
 * and branches against constants and variables. */
#include <stdio.h>
#include <stdint.h>
volatile double V[8] = {1.5, -2.25, 3.125, 0.1, 1e300, -7.0, 2.5e-3, 42.0};
volatile int64_t W[6] = {3, -5, 1234567890123LL, -77, 9, 0x7FFFFFFFFFFFLL};
__attribute__((noinline)) double twice(double x) { return x + x; }
__attribute__((noinline)) int64_t inc(int64_t x) { return x + 1; }
double many(double a, double b, double c) {
    double t0 = a * b, t1 = a / c, t2 = b - c, t3 = a + c, t4 = b * c, t5 = t0 / (t1 + 1.0);
    double t6 = twice(t2) * t3;
    return t0 + t1 * t2 - t3 / t4 + t5 * t6 + twice(t0 * t5);
}
int64_t many64(int64_t a, int64_t b) {
    int64_t q0 = a * b, q1 = a / (b | 1), q2 = b % 13, q3 = a * 31 + b, q4 = inc(q0) * q1;
    int64_t q5 = (q2 * q3) ^ q4, q6 = inc(q5) / (q3 | 1);
    return q0 + q1 - q2 * q3 + q4 + q5 * q6 + inc(q6);
}
int main(void) {
    double acc = 0, x = 0.5, y = 1.25, z = -0.75, w = 3.0;
    int64_t h = 1469598103934665603LL, g = 7, k = 11;
    for (int i = 1; i <= 200; i++) {
        double v = V[i & 7];
        int64_t u = W[i % 6];
        h = (h ^ (uint64_t)i) * 1099511628211ull;
        g = g * 3 + u / (i | 1) - (h % 1000);
        k += (g ^ h) / (int64_t)(i * 7 + 1);
        acc += x * y - z / (w + v) + (double)(h % 65521u) / i + (double)k * 1e-9;
        x = x * 0.999 + y * 0.001; y = y * z * 0.5 + 1.0 / (double)i; z = z - x * 0.01; w = w * 1.0001 + v * 1e-6;
        if (i % 50 == 0) {
            acc += many(x, y, z + 2.0);
            k ^= many64(g, k);
            printf("%d %.17g %.17g %.17g %.17g %.17g %lld %lld %lld\n", i, acc, x, y, z, w,
                   (long long)h, (long long)g, (long long)k);
        }
        if (x < y && z >= -1e9 && acc != w) g += 1; else g -= 1;
    }
    uint64_t big = 0;
    for (uint64_t j = 0; j != 37; j++) big = big * 3 + (j == 20 ? 5 : j < 30 ? 1 : 2) + (big > 0x100000000ull);
    long long s = 0;
    for (long long j = -5; j < 5; j++) s += j * (j > -2) + (j <= 1);
    printf("%llu %lld %lld\n", (unsigned long long)big, s, many64(W[2], W[3]));
    return 0;
}
