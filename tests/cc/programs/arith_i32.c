#include <stdio.h>
#include <stdint.h>
#include <limits.h>
static int32_t f(int32_t a, int32_t b) { return a * b + (a ^ b) - (a & b) + (a | b); }
int main(void) {
    volatile int32_t a = 123456789, b = -987654, z = INT_MIN;
    printf("%d %d %d %d\n", a + b, a - b, a * 3, f(a, b));
    printf("%d %d %d %d\n", a / b, a % b, b / 7, b % 7);
    printf("%d %d %d\n", a >> 5, b >> 5, z >> 31);
    printf("%d %d %d\n", a << 3, ~a, -b);
    printf("%d %d %d %d\n", z < 1, z < b, INT_MAX > a, a > b);
    printf("%d\n", INT_MAX / -1);
    int32_t x = 1;
    for (int i = 0; i < 40; i++) x = x * 5 + i;
    printf("%d\n", x);
    return (a + b) & 0x3F;
}
