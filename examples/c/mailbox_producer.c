/* Mailbox producer: sends the squares 1..N to "app:squares", then an end marker.
 *
 *   hsx cc examples/c/mailbox_producer.c -o producer.hxe
 *   hsx cc examples/c/mailbox_consumer.c -o consumer.hxe
 *   (load both into one executive: the consumer prints what the producer sends)
 *
 * The mailbox holds only a few messages (see the consumer's HSX_MAILBOX), so SEND_WAIT
 * makes the producer wait whenever it gets ahead of the consumer. */
#include <hsx_mailbox.h>
#include <stdio.h>

#define COUNT 10

int main(void) {
    unsigned box;
    unsigned status = hsx_mbx_open("app:squares", HSX_MBX_OPEN_WRONLY, &box);
    if (status != HSX_MBX_STATUS_OK) {
        printf("producer: open failed (%u)\n", status);
        return 1;
    }
    for (int i = 1; i <= COUNT; i++) {
        int square = i * i;
        status = hsx_mbx_send_wait(box, &square, sizeof square, 0, 0,
                                   HSX_MBX_TIMEOUT_INFINITE);
        if (status != HSX_MBX_STATUS_OK) {
            printf("producer: send failed (%u)\n", status);
            return 1;
        }
    }
    int end = -1;                                   /* channel 1: no more data */
    hsx_mbx_send_wait(box, &end, sizeof end, 0, 1, HSX_MBX_TIMEOUT_INFINITE);
    printf("producer: sent %d squares\n", COUNT);
    return 0;
}
