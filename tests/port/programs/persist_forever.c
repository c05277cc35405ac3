/* For power cuts: counts 9:2 (key 1, written at once) up from what was restored, and
 * reports each count on stdout only after its SET returned (the write is done): the
 * acknowledged counts. 9:3 (key 2) is saved once, in the first run, and must survive
 * every later one: its record is carried forward whenever the log leaves a page. Never
 * ends; the test kills the executive. */
#include <hsx_sys.h>
#include <hsx_value.h>

static unsigned char persist_node[8] = { 5, 0, 0xFF, 0xFF, 1, 0, 0, 0 };
static unsigned char marker_node[8] = { 5, 0, 0xFF, 0xFF, 2, 0, 0, 0 };

static void report(const char *what, unsigned v) {
    char line[16];
    int n = 0;
    while (*what)
        line[n++] = *what++;
    for (int shift = 12; shift >= 0; shift -= 4)
        line[n++] = "0123456789abcdef"[(v >> shift) & 15];
    line[n++] = '\n';
    hsx_write(1, line, (unsigned)n);
}

int main(void) {
    unsigned status, oid;
    __asm__ volatile("SVC 7, 0" : "=r"(status), "=r"(oid)
                     : "r"(9), "r"(2), "r"(HSX_VAL_FLAG_PERSIST), "r"(persist_node) : "memory");
    __asm__ volatile("SVC 7, 0" : "=r"(status), "=r"(oid)
                     : "r"(9), "r"(3), "r"(HSX_VAL_FLAG_PERSIST), "r"(marker_node) : "memory");
    unsigned v = hsx_val_get_raw(0x0902), marker = hsx_val_get_raw(0x0903);
    if (!marker)
        hsx_val_set_raw(0x0903, 0x1234, 0);
    report("marker ", marker);
    report("restored ", v);
    for (;;) {
        v = (v + 1) & 0xFFFF;
        if (hsx_val_set_raw(0x0902, v, 0) == HSX_VAL_STATUS_OK)
            report("saved ", v);
    }
}
