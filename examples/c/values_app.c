/* An app with values and a command, declared from C with the metadata macros.
 *
 *   hsx cc examples/c/values_app.c -o thermostat.hxe
 *
 * Loading the image registers two values (group 1) and the command "stats" (1, 3),
 * whose handler is the C function below: calling it (from the host, the shell or
 * another task) runs the handler in this task and returns its result. */
#include <hsx_command.h>
#include <hsx_exec.h>
#include <hsx_value.h>
#include <stdio.h>

HSX_VALUE(1, 1, "setpoint", 20.5);
HSX_VALUE_JSON("{\"group\": 1, \"id\": 2, \"name\": \"temperature\", \"unit\": \"C\", "
               "\"init\": 18, \"flags\": \"RO\"}");

static int readings[8];
static int taken;

/* The command's result: the sum of squares of the readings taken so far, plus 1000
 * times their number (computed here, in C, when the command is called). */
__attribute__((used)) static int stats(void) {
    int sum = 0;
    for (int i = 0; i < taken; i++)
        sum += readings[i] * readings[i];
    return sum + 1000 * taken;
}
HSX_COMMAND(1, 3, "stats", stats);

int main(void) {
    for (taken = 0; taken < 8;) {
        readings[taken] = 15 + taken;           /* a pretend temperature sensor */
        taken++;
        hsx_sleep_ms(50);                       /* commands can be called meanwhile */
    }
    printf("thermostat: %d readings, stats %d\n", taken, stats());
    return 0;
}
