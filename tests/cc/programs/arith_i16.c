#include <stdio.h>
#include <stdint.h>
int main(void) {
    volatile int16_t a = 30000, b = -30000, c = 1234;
    volatile uint16_t u = 65000, v = 1000;
    printf("%d %d %d\n", (int16_t)(a + c), (int16_t)(b - c), (int16_t)(a * 3));
    printf("%u %u %u\n", (uint16_t)(u + v), (uint16_t)(v - u), (uint16_t)(u * v));
    printf("%d %d %d %d\n", a / c, b / c, a % c, b % c);
    printf("%u %u %d %u\n", u / v, u % v, (int16_t)u >> 3, (uint16_t)(u >> 3));
    printf("%d %d %d %d\n", a < b, (int16_t)u < 0, u > v, (uint16_t)b > u);
    int16_t arr[5] = {-1, 2, -3, 4, -5};
    int sum = 0;
    for (int i = 0; i < 5; i++) sum += arr[i] * (i + 1);
    printf("sum=%d\n", sum);
    return sum & 0xFF;
}
