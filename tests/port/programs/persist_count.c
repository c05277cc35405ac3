/* Persistent values across restarts: 9:1 is declared in the image with persist key 3
 * (debounced 100 ms, flushed when the executive exits); 9:2 is registered at run time
 * with a PERSIST node (key 1, no debounce: written at once). Each run prints what was
 * restored and adds `STEPS` to both (a value's f16 bits used as a counter). */
#include <hsx_value.h>
#include <stdio.h>

#ifndef STEPS
#define STEPS 5
#endif

HSX_VALUE_JSON("{\"group\": 9, \"id\": 1, \"name\": \"declared\", \"init\": 0, \"persist_key\": 3}");

static unsigned char persist_node[8] = { 5, 0, 0xFF, 0xFF, 1, 0, 0, 0 };

int main(void) {
    unsigned status, oid;
    __asm__ volatile("SVC 7, 0" : "=r"(status), "=r"(oid)
                     : "r"(9), "r"(2), "r"(HSX_VAL_FLAG_PERSIST), "r"(persist_node) : "memory");
    unsigned declared = hsx_val_get_raw(0x0901), counted = hsx_val_get_raw(0x0902);
    printf("register: %u; restored 0x%04x and 0x%04x\n", status, declared, counted);
    for (int i = 1; i <= STEPS; i++) {
        hsx_val_set_raw(0x0901, declared + (unsigned)i, 0);
        hsx_val_set_raw(0x0902, counted + (unsigned)i, 0);
    }
    printf("now 0x%04x and 0x%04x\n", hsx_val_get_raw(0x0901), hsx_val_get_raw(0x0902));
    return 0;
}
