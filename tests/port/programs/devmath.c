/* SVC module 0x0E over every f16 input: a checksum of each function's results (sin,
 * cos, exp, sqrt, log), so two executives that differ in one result differ here. */
#include <hsx_sys.h>
#include <stdio.h>

static unsigned f(int fn, unsigned x) {
    switch (fn) {
    case 0: return HSX_SVC1(0xE, 0, x) & 0xFFFF;
    case 1: return HSX_SVC1(0xE, 1, x) & 0xFFFF;
    case 2: return HSX_SVC1(0xE, 2, x) & 0xFFFF;
    case 3: return HSX_SVC1(0xE, 3, x) & 0xFFFF;
    default: return HSX_SVC1(0xE, 4, x) & 0xFFFF;
    }
}

int main(void) {
    static const char *names[] = { "sin", "cos", "exp", "sqrt", "log" };
    for (int fn = 0; fn < 5; fn++) {
        unsigned sum = 0;
        for (unsigned x = 0; x < 0x10000; x++)
            sum = sum * 31u + f(fn, x);
        printf("%s %08x\n", names[fn], sum);
    }
    printf("unknown: %08x\n", HSX_SVC1(0xE, 9, 0));
    return 0;
}
