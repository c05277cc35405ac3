#include <stdio.h>
static int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
static int ack(int m, int n) {
    if (m == 0) return n + 1;
    if (n == 0) return ack(m - 1, 1);
    return ack(m - 1, ack(m, n - 1));
}
static long long fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }
static int gcd(int a, int b) { return b ? gcd(b, a % b) : a; }
static int is_odd(int n);
static int is_even(int n) { return n == 0 ? 1 : is_odd(n - 1); }
static int is_odd(int n) { return n == 0 ? 0 : is_even(n - 1); }
int main(void) {
    printf("%d %d %lld %d %d %d\n", fib(18), ack(2, 3), fact(15), gcd(1071, 462), is_even(31), is_odd(31));
    return fib(10);
}
