/* Scenario B: the task the debugger attaches to, pauses and resumes. It declares a
 * value and a command so the extension's views have something to show. */
#include <hsx_command.h>
#include <hsx_exec.h>
#include <hsx_value.h>
#include <stdio.h>

HSX_VALUE(1, 1, "gain", 2.5);

static int rounds;

__attribute__((used)) static int rounds_done(void) {
    return rounds;
}
HSX_COMMAND(1, 2, "rounds", rounds_done);

static int work(int round) {
    int sum = 0;
    for (int i = 0; i <= round; i++)
        sum += i;
    return sum;
}

int main(void) {
    for (rounds = 0; rounds < 3000; rounds++) {
        printf("work %d = %d\n", rounds, work(rounds % 50));
        hsx_sleep_ms(20);
    }
    return 0;
}
