/* Reads stdin to its end and writes it back in capitals; then reads a copy of its own
 * output through a tap on its stdout mailbox. */
#include <hsx_mailbox.h>
#include <hsx_sys.h>
#include <stdio.h>

int main(void) {
    char buf[40];
    int n, total = 0;
    while ((n = hsx_read(0, buf, sizeof buf)) > 0) {
        for (int i = 0; i < n; i++)
            if (buf[i] >= 'a' && buf[i] <= 'z')
                buf[i] = (char)(buf[i] - 32);
        hsx_write(1, buf, (unsigned)n);
        total += n;
    }
    printf("read %d bytes, then %d\n", total, hsx_read(0, buf, sizeof buf));
    fflush(stdout);
    unsigned tap;
    hsx_mbx_info info;
    printf("tap: %u\n", hsx_mbx_open("svc:stdio.out", HSX_MBX_OPEN_TAP, &tap));
    fflush(stdout);
    hsx_write(1, "copied\n", 7);
    unsigned s = hsx_mbx_recv(tap, buf, sizeof buf, HSX_MBX_TIMEOUT_POLL, &info);
    printf("tap got %u: '%.*s' flags %u\n", s, (int)info.length - 1, buf, info.flags);
    printf("another task's stdout: %u\n", hsx_mbx_open("svc:stdio.out@9", 0, &tap));
    return 0;
}
