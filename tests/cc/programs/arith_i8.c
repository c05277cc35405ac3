#include <stdio.h>
#include <stdint.h>
static int8_t add8(int8_t a, int8_t b) { return (int8_t)(a + b); }
static uint8_t mul8(uint8_t a, uint8_t b) { return (uint8_t)(a * b); }
int main(void) {
    volatile int8_t a = 100, b = 27, c = -128;
    volatile uint8_t u = 200, v = 77;
    printf("%d %d %d\n", add8(a, b), add8(a, a), (int8_t)(c - 1));
    printf("%u %u %u\n", mul8(u, v), (uint8_t)(u + v), (uint8_t)(v - u));
    printf("%d %d %d %d\n", a / 7, c / 3, c % 3, -a % 7);
    printf("%u %u %d %d\n", u / 7, u % 7, (int8_t)u >> 2, (int8_t)(u >> 2));
    printf("%d %d %d\n", a > b, c < a, (int8_t)u < 0);
    for (int8_t i = -3; i < 3; i++) printf("%d,", i * 11);
    printf("\n");
    return (uint8_t)(a + u) & 0x7F;
}
