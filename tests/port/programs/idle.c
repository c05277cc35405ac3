/* Waits for a message that never comes. */
#include <hsx_mailbox.h>

int main(void) {
    char text[8];
    hsx_mbx_info info;
    hsx_mbx_recv(1, text, sizeof text, HSX_MBX_TIMEOUT_INFINITE, &info);
    return 0;
}
