/* Sleeps for 60, 20 or 40 ms (by its pid: 1, 2, 3, ...), says when it woke, checks the
 * executive's clock moved at least that far, yields once and exits with its pid. */
#include <hsx_exec.h>
#include <stdio.h>

int main(void) {
    static const unsigned ms[] = { 60, 20, 40 };
    unsigned pid = hsx_getpid(), want = ms[(pid - 1) % 3], start = hsx_time_ms();
    hsx_sleep_ms(want);
    unsigned took = hsx_time_ms() - start;
    printf("pid %u woke after %u ms: %s\n", pid, want, took >= want ? "ok" : "too early");
    hsx_sleep_ms(0);                              /* a sleep of 0 returns at once */
    hsx_yield();
    return (int)pid;
}
