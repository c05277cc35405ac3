/* Waits on crasher's mailbox (svc:box@2); when crasher faults the mailbox goes, the
 * receive ends with INVALID_HANDLE, and this task carries on and exits with 3. */
#include <hsx_exec.h>
#include <hsx_mailbox.h>
#include <stdio.h>

int main(void) {
    unsigned h;
    char text[8];
    hsx_mbx_info info;
    hsx_sleep_ms(40);
    printf("survivor: open svc:box@2: %u\n", hsx_mbx_open("svc:box@2", 0, &h));
    printf("survivor: receive ended: %u\n",
           hsx_mbx_recv(h, text, sizeof text, HSX_MBX_TIMEOUT_INFINITE, &info));
    hsx_sleep_ms(20);
    printf("survivor: still here\n");
    return 3;
}
