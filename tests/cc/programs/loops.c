#include <stdio.h>
int main(void) {
    int total = 0;
    for (int i = 0; i < 10; i++)
        for (int j = i; j < 10; j += 2) {
            if (j == 7) continue;
            if (i * j > 40) break;
            total += i * j;
        }
    int k = 100, steps = 0;
    while (k != 1) { k = (k % 2) ? 3 * k + 1 : k / 2; steps++; }
    int d = 0;
    do { d += 3; } while (d < 50);
    unsigned primes = 0;
    for (unsigned n = 2; n < 500; n++) {
        unsigned p = 1;
        for (unsigned q = 2; q * q <= n; q++) if (n % q == 0) { p = 0; break; }
        primes += p;
    }
    printf("%d %d %d %u\n", total, steps, d, primes);
    return steps;
}
