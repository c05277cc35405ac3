#include <stdio.h>
static int g(int a, int b) { return a * 10 + b; }
static int f(int a, int b) { return g(b, a); }
static int rot(int a, int b, int c, int d, int e) { return a + 2 * b + 3 * c + 4 * d + 5 * e; }
static int h(int a, int b, int c, int d, int e) { return rot(b, c, d, e, a) * 1000 + rot(e, d, c, b, a); }
static int keep(int x) { int t = g(1, 2); return x + t; }
int main(void) {
    printf("%d %d %d\n", f(1, 2), h(1, 2, 3, 4, 5), keep(30));
    return f(2, 1);
}
