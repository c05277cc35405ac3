/* The debugger tests' program: a call chain to step through, locals in every frame,
 * a global that changes, and some output. */
#include <stdio.h>

struct point {
    int x;
    int y;
};

int counter;
struct point last = {1, 2};

static int square(int x) {
    int y = x * x;
    return y;
}

static int sum_squares(int n) {
    int total = 0;
    for (int i = 1; i <= n; i++) {
        total += square(i);
        counter = counter + 1;
        last.x = i;
    }
    return total;
}

int main(void) {
    int result = sum_squares(3);
    printf("result %d\n", result);
    return result == 14 ? 0 : 1;
}
