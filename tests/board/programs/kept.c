/* A persistent value for the board tests: "kept" (group 2, id 1, persist key 7) is
 * restored from the board's flash when the image is loaded; the task sleeps so that the
 * value stays registered while the host sets it. */
#include <hsx_exec.h>
#include <hsx_value.h>

HSX_VALUE_JSON("{\"group\": 2, \"id\": 1, \"name\": \"kept\", \"init\": 1, \"persist_key\": 7}");

int main(void) {
    for (;;)
        hsx_sleep_ms(1000);
}
