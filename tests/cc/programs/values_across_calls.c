#include <stdio.h>
static int id(int x) { return x; }
static int work(int a, int b, int c) {
    int x = a * 3, y = b * 5, z = c * 7;
    int p = id(x) + id(y);
    int q = id(z) - id(a);
    int r = id(p * q);
    return x + y + z + p + q + r + a + b + c;
}
static long long w64(long long a, long long b) { long long t = a * b; long long u = (long long)id((int)a) + t; return t + u + id(3); }
int main(void) {
    int s = 0;
    for (int i = 0; i < 10; i++) s += work(i, i + 1, i + 2);
    printf("%d %lld\n", s, w64(100000, 300000));
    return s & 0xFF;
}
