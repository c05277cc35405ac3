/* The DAP tests' second program: prints a numbered tick every 20 ms, forever. */
#include <stdio.h>
#include <hsx_exec.h>

int main(void) {
    for (int n = 0;; n++) {
        printf("tick %d\n", n);     /* line: tick */
        hsx_sleep_ms(20);
    }
}
