/* C99: mixed declarations and statements, for-loop declarations, inline, restrict,
 * __func__, variadic macros, hexadecimal float literals, _Bool conversion, // comments,
 * long long, empty macro arguments, universal character names in strings. */
#include <stdio.h>
#include <stdbool.h>

#define LOG(fmt, ...) printf("[%s] " fmt "\n", __func__, __VA_ARGS__)
#define COUNT(...) (sizeof((int[]){ 0, __VA_ARGS__ }) / sizeof(int) - 1)
#define CAT(a, b) a##b
#define STR(x) #x
#define XSTR(x) STR(x)

static inline int square(int x) { return x * x; }
static void add_into(int *restrict dst, const int *restrict src, int n) {
    for (int i = 0; i < n; i++)
        dst[i] += src[i];
}

int main(void) {
    int total = 0;
    for (int i = 0; i < 5; i++)
        total += square(i);
    int later = total * 2;            // declared after statements
    LOG("%d %d", total, later);
    printf("%d %d\n", (int)COUNT(1, 2, 3), (int)COUNT(7));
    int CAT(var, 1) = 11;
    printf("%d %s %s\n", var1, STR(a + b), XSTR(__LINE__));
    double h = 0x1.8p3, h2 = 0x.1p4, h3 = 0xAp-2;
    printf("%g %g %g\n", h, h2, h3);
    bool b1 = 0.5, b2 = 256, b3 = (bool)0.0;
    printf("%d %d %d\n", b1, b2, b3);
    int a[4] = { 1, 2, 3, 4 }, c[4] = { 10, 20, 30, 40 };
    add_into(a, c, 4);
    printf("%d %d %d %d\n", a[0], a[1], a[2], a[3]);
    printf("%s\n", "caf\u00e9" + 3 ? "ucn ok" : "");
    unsigned long long big = 1ULL << 63;
    printf("%llu\n", big);
    struct { int x; } arr[2] = { [1] = { 5 } };
    printf("%d %d\n", arr[0].x, arr[1].x);
    return 0;
}
