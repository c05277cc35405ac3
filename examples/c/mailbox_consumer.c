/* Mailbox consumer: receives numbers from "app:squares" until a message on channel 1,
 * prints each one and the total; the exit status is 0 when the total is right.
 * See mailbox_producer.c. */
#include <hsx_mailbox.h>
#include <stdio.h>

HSX_MAILBOX("app:squares", 16, "RDWR");            /* room for a few 4-byte messages */

int main(void) {
    unsigned box;
    unsigned status = hsx_mbx_open("app:squares", HSX_MBX_OPEN_RDONLY, &box);
    if (status != HSX_MBX_STATUS_OK) {
        printf("consumer: open failed (%u)\n", status);
        return 1;
    }
    int total = 0, count = 0;
    for (;;) {
        int value;
        hsx_mbx_info info;
        status = hsx_mbx_recv(box, &value, sizeof value, HSX_MBX_TIMEOUT_INFINITE, &info);
        if (status != HSX_MBX_STATUS_OK) {
            printf("consumer: receive failed (%u)\n", status);
            return 1;
        }
        if (info.channel == 1)
            break;
        printf("consumer: got %d from task %u\n", value, info.src_pid);
        total += value;
        count++;
    }
    printf("consumer: %d messages, total %d\n", count, total);
    hsx_mbx_close(box);
    return total == 385 ? 0 : 2;                    /* 1 + 4 + ... + 100 */
}
