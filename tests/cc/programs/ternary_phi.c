#include <stdio.h>
static int pick(int c, int a, int b) { return c ? a + 1 : b + 2; }
static int clamp(int x, int lo, int hi) { return x < lo ? lo : x > hi ? hi : x; }
static long long sel64(int c, long long a, long long b) { return c > 0 ? a * 2 : b - 1; }
int main(void) {
    int s = 0;
    for (int i = -5; i < 15; i++) s += clamp(i * 3, 0, 20) + pick(i & 1, i, -i);
    printf("%d %d %d %lld %lld\n", s, pick(1, 10, 20), pick(0, 10, 20), sel64(1, 1LL << 40, 7), sel64(-1, 1, 1LL << 41));
    return pick(0, 1, 9);
}
