/* _Alignas/alignas above the frame's 8 bytes: locals, struct members, globals and
 * statics keep the alignment they ask for (and their values). */
#include <stdio.h>
#include <stdalign.h>
#include <stdint.h>

struct vec8 { alignas(32) float x[8]; };
char pad1 = 1;
alignas(64) int g64[4] = { 1, 2, 3, 4 };
char pad2;
alignas(32) static char s32[3] = "ab";
alignas(16) long long z16 = -1;

static int aligned(const void *p, int a) { return ((uintptr_t)p & (uintptr_t)(a - 1)) == 0; }

static int locals(int n) {
    alignas(16) char a[3] = { (char)n };
    alignas(64) int b = n * 3;
    struct vec8 v = { { 1, (float)n } };
    char c[5] = "four";
    return aligned(a, 16) + 2 * aligned(&b, 64) + 4 * aligned(&v, 32) + 8 * (b == n * 3) +
           16 * (a[0] == n) + 32 * (v.x[1] == n) + 64 * (c[3] == 'r');
}

static int deep(int n) {
    alignas(32) double d[2] = { n, n + 0.5 };
    if (n == 0)
        return aligned(d, 32);
    return aligned(d, 32) + deep(n - 1) + (d[1] - d[0] == 0.5);
}

int main(void) {
    for (int i = 0; i < 4; i++)
        printf("%d ", locals(i));
    printf("\n%d\n", deep(6));
    printf("%d %d %d %d %s %lld\n", aligned(g64, 64), aligned(s32, 32), aligned(&z16, 16),
           g64[3], s32, z16);
    printf("%d %d\n", (int)alignof(struct vec8), (int)sizeof(struct vec8));
    return 0;
}
