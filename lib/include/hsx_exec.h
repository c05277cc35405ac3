/* hsx_exec.h: executive services (SVC module 0x06). */
#ifndef _HSX_EXEC_H
#define _HSX_EXEC_H
#include <hsx_sys.h>

#define HSX_EXEC_FN_SLEEP_MS 0x00

/* Sleep for `ms` milliseconds (SLEEP_MS takes its argument in R0); returns 0. */
static inline int hsx_sleep_ms(unsigned ms) {
    unsigned r;
    __asm__ volatile("MOV R0, %1\nSVC 6, 0" : "=r"(r) : "r"(ms) : "memory");
    return (int)r;
}
#endif
