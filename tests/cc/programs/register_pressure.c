#include <stdio.h>
static int f(int *v) {
    int a = v[0], b = v[1], c = v[2], d = v[3], e = v[4], g = v[5], h = v[6], i = v[7];
    int j = v[8], k = v[9], l = v[10], m = v[11], n = v[12], o = v[13], p = v[14], q = v[15];
    int r1 = a * b + c * d - e * g + h * i;
    int r2 = j * k - l * m + n * o - p * q;
    int r3 = a + b + c + d + e + g + h + i + j + k + l + m + n + o + p + q;
    int r4 = (a ^ q) + (b ^ p) + (c ^ o) + (d ^ n) + (e ^ m) + (g ^ l) + (h ^ k) + (i ^ j);
    return r1 * 3 + r2 * 5 + r3 * 7 + r4 + a * q + b * p + c * o;
}
int main(void) {
    int v[16];
    for (int i = 0; i < 16; i++) v[i] = i * 7 - 30;
    long long acc = 0;
    for (int t = 0; t < 20; t++) { v[t % 16] += t; acc += f(v); }
    printf("%lld\n", acc);
    return (int)(acc & 0x7F);
}
