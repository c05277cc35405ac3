/* Calls cmd_owner's command: synchronously, asynchronously (the completion arrives on
 * a mailbox), with a refused PIN-less call and HELP; then tells the owner it is done. */
#include <hsx_command.h>
#include <hsx_exec.h>
#include <hsx_mailbox.h>
#include <hsx_value.h>
#include <stdio.h>

int main(void) {
    unsigned oid, result, status, handle, owner;
    char help[32];
    unsigned char done[8];
    hsx_mbx_info info;
    hsx_sleep_ms(30);                              /* the owner is waiting by now */
    printf("lookup: %u\n", hsx_cmd_lookup(4, 1, &oid));
    status = hsx_cmd_call(oid, 0, &result);
    printf("call: %u result %u\n", status, result);
    status = hsx_cmd_call(oid, 0, &result);
    printf("call: %u result %u\n", status, result);
    __asm__ volatile("SVC 8, 3" : "=r"(status), "=r"(handle) : "r"(oid), "r"(0), "r"("app:replies")
                     : "memory");
    printf("call_async: %u\n", status);
    status = hsx_mbx_recv(handle, done, sizeof done, HSX_MBX_TIMEOUT_INFINITE, &info);
    printf("completion %u: oid 0x%02x%02x status %u result %u (%u bytes)\n", status, done[1],
           done[0], done[2] | done[3] << 8,
           done[4] | done[5] << 8 | done[6] << 16 | (unsigned)done[7] << 24, info.length);
    printf("unknown: %u\n", hsx_cmd_call(0x0909, 0, &result));
    __asm__ volatile("SVC 8, 3" : "=r"(status), "=r"(handle) : "r"(0x0909), "r"(0), "r"("app:replies")
                     : "memory");
    printf("call_async unknown: %u handle %u\n", status, handle);
    status = hsx_cmd_help(oid, help, sizeof help);
    printf("help: %u '%s'\n", status, help);
    status = hsx_cmd_help(oid, help, 6);
    printf("help in 6: %u '%s'\n", status, help);
    float level;
    printf("value 4:2: %u", hsx_val_get(0x0402, &level));
    printf(" = %d/10, set by another task: %u\n", (int)(level * 10), hsx_val_set(0x0402, 2.0f));
    hsx_mbx_open("app:owner", 0, &owner);
    hsx_mbx_send(owner, "done", 4, 0, 0);
    return 0;
}
