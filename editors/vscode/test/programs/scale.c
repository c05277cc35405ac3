/* Scenario A of the DebugClient tests: breakpoints, stepping, variables, output, exit. */
#include <stdio.h>

struct point {
    int x;
    int y;
};

static int scale(int value, int factor) {
    int result = value * factor;
    return result;
}

int main(void) {
    struct point p = {3, 4};
    int total = 0;
    printf("start\n");
    total = scale(p.x, 10);
    total += p.y;
    printf("total %d\n", total);
    return 3;
}
