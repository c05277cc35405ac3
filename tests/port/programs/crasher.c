/* Binds svc:box (its own mailbox), then after 100 ms writes through a null pointer. */
#include <hsx_exec.h>
#include <hsx_mailbox.h>
#include <stdio.h>

int main(void) {
    printf("crasher %u: bound svc:box: %u\n", hsx_getpid(), hsx_mbx_bind("svc:box", 32, 0));
    hsx_sleep_ms(100);
    printf("crasher: crashing\n");
    *(volatile int *)4 = 1;
    printf("crasher: not reached\n");
    return 0;
}
