/* Scenario B: the task nobody debugs; it must keep printing while the other is paused. */
#include <hsx_exec.h>
#include <stdio.h>

int main(void) {
    for (int tick = 0; tick < 3000; tick++) {
        printf("tick %d\n", tick);
        hsx_sleep_ms(20);
    }
    return 0;
}
