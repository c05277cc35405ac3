/* Declares the value 6:1, the command 6:2 and the mailbox app:child, then waits. */
#include <hsx_command.h>
#include <hsx_mailbox.h>
#include <hsx_value.h>

int ping(void) { return 7; }
HSX_VALUE(6, 1, "child", 1.0);
HSX_COMMAND(6, 2, "ping", ping);
HSX_MAILBOX("app:child", 32, "RDWR");

int main(void) {
    unsigned h;
    char text[8];
    hsx_mbx_info info;
    hsx_mbx_open("app:child", 0, &h);
    hsx_mbx_recv(h, text, sizeof text, HSX_MBX_TIMEOUT_INFINITE, &info);
    return 0;
}
