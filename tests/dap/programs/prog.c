/* The DAP tests' program: calls to step through, a struct and an array to expand,
 * a global to watch, output, and exit status 3. */
#include <stdio.h>

struct pair {
    int left;
    int right;
};

int counter;
int table[4] = {10, 20, 30, 40};
struct pair origin = {1, 2};

static int twice(int x) {
    int doubled = x * 2;            /* line: twice body */
    return doubled;
}

static int accumulate(int n) {
    int total = 0;                  /* line: accumulate body */
    for (int i = 0; i < n; i++) {
        total += twice(table[i]);   /* line: call twice */
        counter = counter + 1;      /* line: count */
    }
    return total;
}

int main(void) {

    int sum = accumulate(4);        /* line: call accumulate */
    origin.left = sum;              /* line: after accumulate */
    printf("sum %d\n", sum);
    return sum == 200 ? 3 : 1;
}
