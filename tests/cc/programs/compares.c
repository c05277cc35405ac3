#include <stdio.h>
#include <stdint.h>
#include <limits.h>
static int cmp_s(int a, int b) { return (a < b) * 1 + (a <= b) * 2 + (a > b) * 4 + (a >= b) * 8 + (a == b) * 16 + (a != b) * 32; }
static int cmp_u(unsigned a, unsigned b) { return (a < b) * 1 + (a <= b) * 2 + (a > b) * 4 + (a >= b) * 8 + (a == b) * 16 + (a != b) * 32; }
static int cmp_ll(long long a, long long b) { return (a < b) * 1 + (a <= b) * 2 + (a > b) * 4 + (a >= b) * 8 + (a == b) * 16 + (a != b) * 32; }
static int cmp_ull(unsigned long long a, unsigned long long b) { return (a < b) * 1 + (a <= b) * 2 + (a > b) * 4 + (a >= b) * 8 + (a == b) * 16 + (a != b) * 32; }
int main(void) {
    int vals[] = {0, 1, -1, INT_MAX, INT_MIN, 100, -100};
    for (int i = 0; i < 7; i++)
        for (int j = 0; j < 7; j++)
            printf("%d %d %d %d\n", cmp_s(vals[i], vals[j]), cmp_u(vals[i], vals[j]),
                   cmp_ll((long long)vals[i] * 3, (long long)vals[j] << 33),
                   cmp_ull((unsigned long long)(long long)vals[i], (unsigned long long)vals[j] << 31));
    return 0;
}
