/* hsx_exec.h: executive services (SVC module 0x06, docs/syscalls.md). */
#ifndef _HSX_EXEC_H
#define _HSX_EXEC_H
#include <hsx_sys.h>

#define HSX_EXEC_FN_SLEEP_MS 0x00
#define HSX_EXEC_FN_YIELD 0x01
#define HSX_EXEC_FN_GETPID 0x02
#define HSX_EXEC_FN_EXIT 0x03
#define HSX_EXEC_FN_SPAWN 0x04
#define HSX_EXEC_FN_KILL 0x05
#define HSX_EXEC_FN_WAIT 0x06
#define HSX_EXEC_FN_TIME_MS 0x07
#define HSX_EXEC_FN_MEMINFO 0x08

/* Sleep for `ms` milliseconds (SLEEP_MS takes its argument in R0); returns 0. */
static inline int hsx_sleep_ms(unsigned ms) {
    unsigned r;
    __asm__ volatile(HSX_SVC_TEXT(6, 0) : "=r"(r) : "0"(ms) : "memory");
    return (int)r;
}

/* Go to the back of the task's priority level. */
static inline int hsx_yield(void) { return (int)HSX_SVC0(6, 1); }

/* The task's pid. */
static inline unsigned hsx_getpid(void) { return HSX_SVC0(6, 2); }

/* Milliseconds since the executive started (wraps at 2^32). */
static inline unsigned hsx_time_ms(void) { return HSX_SVC0(6, 7); }

/* Start the `.hxe` at `path` in the sandbox: the new pid, or a negative error. */
static inline int hsx_spawn(const char *path) { return (int)HSX_SVC1(6, 4, path); }

static inline int hsx_kill(unsigned pid) { return (int)HSX_SVC1(6, 5, pid); }

/* 0 (and *status = the exit status) once task `pid` has ended, else -EAGAIN/-ESRCH. */
static inline int hsx_wait(unsigned pid, int *status) {
    unsigned r, s;
    __asm__ volatile(HSX_SVC_TEXT(6, 6) : "=r"(r), "=r"(s) : "r"(pid) : "memory");
    if (status) *status = (int)s;
    return (int)r;
}

typedef struct {
    unsigned heap_start, heap_end, stack_base, stack_top;
} hsx_meminfo_t;

/* The task's memory layout (heap bounds, stack), as malloc uses it. */
static inline void hsx_meminfo(hsx_meminfo_t *out) {
    unsigned a, b, c, d;
    __asm__ volatile(HSX_SVC_TEXT(6, 8) : "=r"(a), "=r"(b), "=r"(c), "=r"(d) : : "memory");
    out->heap_start = a;
    out->heap_end = b;
    out->stack_base = c;
    out->stack_top = d;
}
#endif
