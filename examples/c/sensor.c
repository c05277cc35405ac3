/* A sensor loop: take a reading every 100 ms, print it with the executive's clock,
 * and report the average at the end.
 *
 *   hsx cc examples/c/sensor.c -o sensor.hxe && hsx run sensor.hxe */
#include <hsx_exec.h>
#include <stdio.h>

#define SAMPLES 5
#define PERIOD_MS 100

static unsigned state = 12345;

/* A pretend ADC: a pseudo-random reading between 200 and 263. */
static int read_adc(void) {
    state = state * 1103515245u + 12345u;
    return 200 + (int)((state >> 16) & 63);
}

int main(void) {
    unsigned start = hsx_time_ms();
    int total = 0;
    for (int i = 0; i < SAMPLES; i++) {
        int value = read_adc();
        total += value;
        printf("sensor: t=%u ms reading %d\n", hsx_time_ms() - start, value);
        hsx_sleep_ms(PERIOD_MS);
    }
    printf("sensor: average %d.%d over %u ms\n", total / SAMPLES, total % SAMPLES * 10 / SAMPLES,
           hsx_time_ms() - start);
    return 0;
}
