/* With mbx_wait_main: waits first on app:multi, then empties app:full when told. */
#include <hsx_mailbox.h>
#include <stdio.h>

int main(void) {
    char text[32];
    hsx_mbx_info info;
    unsigned multi, reports, full, go;
    hsx_mbx_bind("app:multi", 64, HSX_MBX_MODE_RDWR);
    hsx_mbx_open("app:multi", 0, &multi);
    hsx_mbx_bind("app:report", 96, HSX_MBX_MODE_RDWR);
    hsx_mbx_open("app:report", 0, &reports);
    hsx_mbx_recv(multi, text, sizeof text, HSX_MBX_TIMEOUT_INFINITE, &info);
    char line[32];
    int n = snprintf(line, sizeof line, "b got %.*s from %u", (int)info.length, text, info.src_pid);
    hsx_mbx_send(reports, line, (unsigned)n, 0, 0);
    hsx_mbx_bind("app:go", 32, HSX_MBX_MODE_RDWR);
    hsx_mbx_open("app:go", 0, &go);
    hsx_mbx_recv(go, text, sizeof text, HSX_MBX_TIMEOUT_INFINITE, &info);
    hsx_mbx_bind("app:full", 16, HSX_MBX_MODE_RDWR);
    hsx_mbx_open("app:full", 0, &full);
    hsx_mbx_recv(full, text, sizeof text, HSX_MBX_TIMEOUT_INFINITE, &info);
    n = snprintf(line, sizeof line, "b took %.*s", (int)info.length, text);
    hsx_mbx_send(reports, line, (unsigned)n, 0, 0);
    return 0;
}
