#include <stdio.h>
#include <stdint.h>
typedef int32_t q16;
static q16 q_mul(q16 a, q16 b) { return (q16)(((int64_t)a * b) >> 16); }
static q16 q_div(q16 a, q16 b) { return (q16)(((int64_t)a << 16) / b); }
int main(void) {
    q16 x = 3 << 16, y = (q16)(1.5 * 65536);
    q16 r = q_div(q_mul(x, y), 7 << 16);
    q16 s = 1 << 16;
    for (int i = 0; i < 10; i++) s = q_mul(s, (q16)(1.1 * 65536));
    printf("%d %d %d %d\n", r, s, r >> 16, (int)(((int64_t)r * 1000) >> 16));
    return (r >> 8) & 0xFF;
}
