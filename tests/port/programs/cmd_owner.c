/* Owns the command 4:1 "count" (metadata) and the value 4:2; its handler runs in this
 * task when cmd_caller calls it, while this task itself waits in a receive. */
#include <hsx_command.h>
#include <hsx_mailbox.h>
#include <hsx_value.h>
#include <stdio.h>

static int calls;

int count_handler(void) {
    calls++;
    return 1000 + calls;
}

HSX_COMMAND_JSON("{\"group\": 4, \"id\": 1, \"name\": \"count\", \"help\": \"Count the calls\", "
                 "\"handler\": \"count_handler\", \"flags\": \"ASYNC\"}");
HSX_VALUE(4, 2, "level", 1.5);

int main(void) {
    unsigned inbox, oid, result;
    char text[16];
    hsx_mbx_info info;
    hsx_mbx_bind("app:owner", 32, HSX_MBX_MODE_RDWR);
    hsx_mbx_open("app:owner", 0, &inbox);
    hsx_cmd_lookup(4, 1, &oid);
    printf("owner calls itself: %u\n", hsx_cmd_call(oid, 0, &result));
    hsx_mbx_recv(inbox, text, sizeof text, HSX_MBX_TIMEOUT_INFINITE, &info);  /* "done" */
    printf("owner: handler ran %d times, woken by '%.*s'\n", calls, (int)info.length, text);
    return 0;
}
