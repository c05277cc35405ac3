/* With mbx_wait_main: waits on app:multi after mbx_wait_b does. */
#include <hsx_exec.h>
#include <hsx_mailbox.h>
#include <stdio.h>

int main(void) {
    char text[32], line[32];
    hsx_mbx_info info;
    unsigned multi, reports;
    hsx_sleep_ms(20);
    hsx_mbx_bind("app:multi", 64, HSX_MBX_MODE_RDWR);
    hsx_mbx_open("app:multi", 0, &multi);
    hsx_mbx_bind("app:report", 96, HSX_MBX_MODE_RDWR);
    hsx_mbx_open("app:report", 0, &reports);
    hsx_mbx_recv(multi, text, sizeof text, HSX_MBX_TIMEOUT_INFINITE, &info);
    int n = snprintf(line, sizeof line, "c got %.*s", (int)info.length, text);
    hsx_mbx_send(reports, line, (unsigned)n, 0, 0);
    return 0;
}
