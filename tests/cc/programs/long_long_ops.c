#include <stdio.h>
static unsigned long long isqrt(unsigned long long n) { unsigned long long x = n, y = (x + 1) / 2; while (y < x) { x = y; y = (x + n / x) / 2; } return x; }
static unsigned long long powmod(unsigned long long b, unsigned long long e, unsigned long long m) { unsigned long long r = 1; b %= m; while (e) { if (e & 1) r = r * b % m; b = b * b % m; e >>= 1; } return r; }
int main(void) {
    printf("%llu %llu\n", isqrt(1000000000000ULL), isqrt(4611686018427387904ULL));
    printf("%llu %llu\n", powmod(2, 62, 1000000007ULL), powmod(123456789, 987654321, 998244353ULL));
    long long a = -7, b = 2;
    printf("%lld %lld %lld %lld\n", a / b, a % b, -a / b, a / -b);
    return (int)(powmod(3, 200, 251));
}
