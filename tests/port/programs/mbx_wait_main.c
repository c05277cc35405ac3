/* Blocking mailboxes, with mbx_wait_b and mbx_wait_c: a receive that times out, blocked
 * receivers served oldest first (one message wakes one of them), the message handed
 * over to the woken task, SEND_WAIT timing out on a full mailbox and then woken by a
 * receive that makes room. Only this task prints. */
#include <hsx_exec.h>
#include <hsx_mailbox.h>
#include <stdio.h>
#include <string.h>

static unsigned box(const char *target, unsigned capacity) {
    unsigned h;
    hsx_mbx_bind(target, capacity, HSX_MBX_MODE_RDWR);
    hsx_mbx_open(target, 0, &h);
    return h;
}

static void report(unsigned h, unsigned timeout) {
    char text[32];
    hsx_mbx_info info;
    unsigned s = hsx_mbx_recv(h, text, sizeof text, timeout, &info);
    if (s == HSX_MBX_STATUS_OK)
        printf("report: %.*s\n", (int)info.length, text);
    else
        printf("report status %u\n", s);
}

int main(void) {
    char text[32];
    hsx_mbx_info info;
    unsigned mine = box("app:mine", 64), reports = box("app:report", 96);
    unsigned multi = box("app:multi", 64), full = box("app:full", 16), go = box("app:go", 32);
    unsigned s = hsx_mbx_recv(mine, text, sizeof text, 30, &info);
    printf("recv with nothing sent, 30 ms: status %u\n", s);
    hsx_sleep_ms(200);                            /* b and c block on app:multi meanwhile */
    printf("send one to two waiters: %u\n", hsx_mbx_send(multi, "m1", 2, 0, 0));
    report(reports, HSX_MBX_TIMEOUT_INFINITE);
    report(reports, 50);                          /* nobody else was woken */
    printf("send another: %u\n", hsx_mbx_send(multi, "m2", 2, 0, 0));
    report(reports, HSX_MBX_TIMEOUT_INFINITE);
    printf("fill: %u\n", hsx_mbx_send(full, "12345678", 8, 0, 0));
    printf("send_wait 30 ms on a full mailbox: %u\n",
           hsx_mbx_send_wait(full, "abcdefgh", 8, 0, 0, 30));
    hsx_mbx_send(go, "go", 2, 0, 0);              /* b reads app:full in a moment */
    printf("send_wait until room: %u\n",
           hsx_mbx_send_wait(full, "abcdefgh", 8, 0, 7, HSX_MBX_TIMEOUT_INFINITE));
    report(reports, HSX_MBX_TIMEOUT_INFINITE);
    s = hsx_mbx_recv(full, text, sizeof text, HSX_MBX_TIMEOUT_POLL, &info);
    printf("then app:full holds '%.*s' channel %u (status %u)\n", (int)info.length, text,
           info.channel, s);
    return 0;
}
