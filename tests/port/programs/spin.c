/* For the protocol tests: prints once, then loops through a call forever, so a
 * breakpoint at bump is hit again and again and the stack has a caller. */
#include <stdio.h>

volatile int counter;

int bump(int n) { return n + 1; }

int main(void) {
    printf("spin starts\n");
    for (;;)
        counter = bump(counter);
}
