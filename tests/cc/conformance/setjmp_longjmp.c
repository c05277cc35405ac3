/* setjmp/longjmp: jumping out of deep recursion, the value 0 turned into 1, several
 * buffers, volatile locals keeping values changed after setjmp. */
#include <stdio.h>
#include <setjmp.h>

static jmp_buf env, inner;
static int depth;

static void dive(int n) {
    depth = n;
    if (n == 0)
        longjmp(env, 42);
    dive(n - 1);
    printf("never\n");
}

static int guarded(int x) {
    if (setjmp(inner))
        return -1;
    if (x < 0)
        longjmp(inner, 1);
    return x * 2;
}

static int try_count;

static void fail_sometimes(int k) {
    if (k % 3 != 0)
        longjmp(env, k);
}

int main(void) {
    volatile int count = 0;
    int r = setjmp(env);
    count++;
    printf("r=%d count=%d depth=%d\n", r, count, depth);
    if (r == 0)
        dive(50);
    jmp_buf local;
    if (!setjmp(local))
        longjmp(local, 0);
    else
        printf("zero becomes 1\n");
    printf("%d %d %d\n", guarded(5), guarded(-5), guarded(7));
    for (int k = 1; k <= 6; k++) {
        int v = setjmp(env);
        if (v == 0) {
            try_count++;
            fail_sometimes(k);
            printf("k=%d ok\n", k);
        } else {
            printf("k=%d failed with %d\n", k, v);
        }
    }
    printf("tries %d\n", try_count);
    return 0;
}
