/* Kill releases everything: spawns child.hxe (which declares a value, a command and a
 * mailbox and then waits), kills it, and spawns it again; then spawns until the task
 * limit refuses, kills them all, and spawns once more. Last, spawns renamed.hxe, which
 * is crasher.hxe: the task is named after its image, not the file (its fault says so). */
#include <hsx_exec.h>
#include <hsx_value.h>
#include <stdio.h>

int main(void) {
    unsigned oid;
    int status, pids[300], n = 0;
    int child = hsx_spawn("/child.hxe");
    printf("spawned: %s\n", child > 0 ? "yes" : "no");
    hsx_sleep_ms(20);
    printf("child's value: %u\n", hsx_val_lookup(6, 1, &oid));
    printf("spawn a second instance: %d\n", hsx_spawn("/child.hxe"));   /* its OIDs are taken */
    printf("kill: %d, again: %d, itself: %d\n", hsx_kill((unsigned)child), hsx_kill((unsigned)child),
           hsx_kill(hsx_getpid()));
    printf("wait for it: %d", hsx_wait((unsigned)child, &status));
    printf(" status %d; value now: %u\n", status, hsx_val_lookup(6, 1, &oid));
    child = hsx_spawn("/child.hxe");
    printf("spawned again: %s\n", child > 0 ? "yes" : "no");
    hsx_sleep_ms(20);
    printf("child's value again: %u\n", hsx_val_lookup(6, 1, &oid));
    hsx_kill((unsigned)child);
    printf("no such file: %d, bad path: %d\n", hsx_spawn("/missing.hxe"), hsx_spawn("../x.hxe"));
    while (n < 300 && (pids[n] = hsx_spawn("/idle.hxe")) > 0)
        n++;
    printf("spawned %d idle tasks, then: %d\n", n, n < 300 ? pids[n] : 0);
    for (int i = 0; i < n; i++)
        hsx_kill((unsigned)pids[i]);
    child = hsx_spawn("/idle.hxe");
    printf("after killing them: %s\n", child > 0 ? "spawned" : "refused");
    hsx_kill((unsigned)child);
    printf("renamed: %s\n", hsx_spawn("/renamed.hxe") > 0 ? "spawned" : "refused");
    hsx_sleep_ms(200);                             /* it faults meanwhile */
    return 0;
}
