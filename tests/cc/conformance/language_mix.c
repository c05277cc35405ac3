/* A mix: K&R definitions, a statically initialised flexible array member, a 90-case
 * switch, 20 mixed arguments, register pressure, frames past 4 KB, VLAs in recursion,
 * structs through function-pointer tables, mixed signed/unsigned compares and
 * division by constants. */
#include <stdio.h>
#include <string.h>
#include <stdint.h>
#include <stdlib.h>
int kr(a, b) int a; char *b; { return a + (int)strlen(b); }
struct fam { int n; int v[]; };
static struct fam sf = { 3, { 10, 20, 30 } };
struct zl { int n; char data[0]; };
static int many(int a1, int a2, int a3, int a4, int a5, int a6, int a7, int a8, int a9, int a10,
                long long b1, double c1, int a11, float f1, long long b2, int a12, double c2, char ch, short sh, int a13) {
    return a1 + a2 * 2 + a3 * 3 + a4 * 4 + a5 * 5 + a6 * 6 + a7 * 7 + a8 * 8 + a9 * 9 + a10 * 10 + (int)(b1 % 1000) + (int)c1 + a11 + (int)f1 + (int)(b2 >> 32) + a12 + (int)(c2 * 10) + ch + sh + a13;
}
static int bigswitch(int k) {
    switch (k) {
#define C(n) case n: return n * 7 + 1;
#define C10(n) C(n##0) C(n##1) C(n##2) C(n##3) C(n##4) C(n##5) C(n##6) C(n##7) C(n##8) C(n##9)
    C10(1) C10(2) C10(3) C10(4) C10(5) C10(6) C10(7) C10(8) C10(9)
    case 1000: return -1; case -1000: return -2; case 5000: return -3;
    default: return 0;
    }
}
__attribute__((noinline)) static long long frame_heavy(int seed) {
    char big[3000]; int arr[300]; long long acc = 0; double d[40];
    for (int i = 0; i < 3000; i++) big[i] = (char)(i * seed);
    for (int i = 0; i < 300; i++) arr[i] = i ^ seed;
    for (int i = 0; i < 40; i++) d[i] = i * 0.5 + seed;
    for (int i = 0; i < 3000; i += 7) acc += big[i];
    for (int i = 299; i >= 0; i -= 3) acc += arr[i] * (long long)i;
    for (int i = 0; i < 40; i++) acc += (long long)(d[i] * 4);
    return acc + big[2999] + arr[0];
}
static int pressure(int *p) {
    int a = p[0], b = p[1], c = p[2], d = p[3], e = p[4], f = p[5], g = p[6], h = p[7], i = p[8], j = p[9], k = p[10], l = p[11], m = p[12], n = p[13], o = p[14], q = p[15];
    for (int it = 0; it < 10; it++) {
        a += b * c; b ^= d + e; c -= f * g; d += h ^ i; e = j - k + e; f += l * m; g ^= n + o; h -= q * a;
        i += a >> 3; j ^= b << 2; k += c * 3; l -= d; m += e ^ f; n ^= g; o += h * i; q -= j + k;
    }
    return a + b + c + d + e + f + g + h + i + j + k + l + m + n + o + q;
}
typedef struct { int x, y, z; } V3;
static V3 vadd(V3 a, V3 b) { return (V3){a.x + b.x, a.y + b.y, a.z + b.z}; }
static V3 vscale(V3 a, int k) { return (V3){a.x * k, a.y * k, a.z * k}; }
static V3 (*vops[])(V3, V3) = { vadd };
static int vla_rec(int n) { if (n == 0) return 0; int v[n]; for (int i = 0; i < n; i++) v[i] = i; return v[n - 1] + vla_rec(n - 1); }
static int cmpstr(const void *a, const void *b) { return strcmp(*(const char *const *)a, *(const char *const *)b); }
int main(void) {
    printf("%d\n", kr(3, "four"));
    printf("%d %d %d %d\n", sf.n, sf.v[0], sf.v[2], (int)sizeof(struct zl));
    printf("%d\n", many(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 123456789012LL, 2.5, 11, 3.75f, 0x500000000LL, 12, 1.25, 'A', -300, 13));
    int s = 0; for (int k = -1000; k <= 5000; k++) s += bigswitch(k); printf("%d\n", s);
    printf("%lld %lld\n", frame_heavy(3), frame_heavy(-7));
    int pv[16]; for (int i = 0; i < 16; i++) pv[i] = i * 37 - 100; printf("%d\n", pressure(pv));
    V3 a = {1, 2, 3}, b = {10, 20, 30}; V3 c = vops[0](vscale(a, 3), b); printf("%d %d %d\n", c.x, c.y, c.z);
    printf("%d\n", vla_rec(30));
    const char *words[] = {"pear", "apple", "fig", "banana", "cherry"}; qsort(words, 5, sizeof *words, cmpstr);
    for (int i = 0; i < 5; i++) printf("%s ", words[i]); printf("\n");
    uint32_t u = 0xFFFFFFFF; int32_t sgn = -1; printf("%d %d %d\n", u > sgn, (uint64_t)u > (uint64_t)(int64_t)sgn, (int64_t)u > sgn);
    unsigned char uc = 0x80; signed char sc = (signed char)uc; printf("%d %d %u\n", uc >> 7, sc >> 7, (unsigned)(sc << 1));
    int64_t q = INT64_MIN; printf("%lld %lld\n", (long long)(q / -1 == q ? 1 : 0) * 0, (long long)(q % 3));
    for (int d = -9; d <= 9; d += 3) if (d) printf("%d:%d:%d ", 1000 / d, -1000 % d, (int)(1000u / (unsigned)d)); printf("\n");
    long long lls[] = {7, -7, 1LL << 40, -(1LL << 40), 1000000007LL};
    for (int i = 0; i < 5; i++) printf("%lld %lld %lld %lld|", lls[i] / 3, lls[i] % 10, lls[i] / 1000000, (long long)((unsigned long long)lls[i] / 7)); printf("\n");
    return 0;
}
