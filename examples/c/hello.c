/* hsx cc examples/c/hello.c -o hello.hxe && hsx run hello.hxe */
#include <stdio.h>

static unsigned long long fib(int n) {
    unsigned long long a = 0, b = 1;
    while (n-- > 0) {
        unsigned long long t = a + b;
        a = b;
        b = t;
    }
    return a;
}

int main(void) {
    printf("Hello from C on HSX\n");
    for (int i = 0; i <= 90; i += 30)
        printf("fib(%d) = %llu\n", i, fib(i));
    printf("pi is about %.6f\n", 355.0 / 113.0);
    return 0;
}
