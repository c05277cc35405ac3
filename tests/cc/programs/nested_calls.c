#include <stdio.h>
static int sq(int x) { return x * x; }
static int add3(int a, int b, int c) { return a + b + c; }
int main(void) {
    int r = add3(sq(add3(1, 2, 3)), sq(sq(2)), add3(sq(1), sq(2), sq(3)));
    printf("%d %d\n", r, sq(add3(r, -r, 5)));
    return r & 0xFF;
}
