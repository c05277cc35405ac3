/* Recursion: deep linear recursion, mutual recursion, Ackermann, recursion with large
 * frames and with 64-bit and double arguments. */
#include <stdio.h>

static int depth_sum(int n) { return n == 0 ? 0 : n + depth_sum(n - 1); }
static int is_even(unsigned n);
static int is_odd(unsigned n) { return n == 0 ? 0 : is_even(n - 1); }
static int is_even(unsigned n) { return n == 0 ? 1 : is_odd(n - 1); }
static unsigned ack(unsigned m, unsigned n) {
    return m == 0 ? n + 1 : n == 0 ? ack(m - 1, 1) : ack(m - 1, ack(m, n - 1));
}
static long long fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
static double power(double x, int n) {
    if (n == 0) return 1;
    double h = power(x, n / 2);
    return n % 2 ? h * h * x : h * h;
}
static int framed(int n) {
    int local[16];
    for (int i = 0; i < 16; i++)
        local[i] = n + i;
    return n == 0 ? local[15] : local[n % 16] + framed(n - 1) - local[(n + 1) % 16];
}
static long long gcd(long long a, long long b) { return b == 0 ? a : gcd(b, a % b); }
static int hanoi(int n, int from, int to, int via) {
    return n == 0 ? 0 : hanoi(n - 1, from, via, to) + 1 + hanoi(n - 1, via, to, from);
}

int main(void) {
    printf("%d\n", depth_sum(250));
    printf("%d %d\n", is_even(300), is_odd(301));
    printf("%u %u\n", ack(2, 3), ack(3, 3));
    printf("%lld\n", fib(22));
    printf("%.1f %.6g\n", power(2, 40), power(1.0001, 10000));
    printf("%d\n", framed(40));
    printf("%lld\n", gcd(1234567890123LL, 9876543210LL));
    printf("%d\n", hanoi(12, 1, 3, 2));
    return 0;
}
