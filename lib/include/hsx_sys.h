/* hsx_sys.h: raw SVC access and the task-level system calls (docs/c-compiler.md).
 *
 * HSX inline-asm convention: the k-th "=r" output is R0, R1, ... in order; register
 * inputs ("r") are R1..R5 in order; every asm statement may clobber R0..R5 and must
 * keep R6..R15.  So an SVC is just its instruction with the operands listed in the
 * order the SVC expects them. */
#ifndef _HSX_SYS_H
#define _HSX_SYS_H

#define HSX_SVC_MODULE_CORE 0x00
#define HSX_SVC_MODULE_TASK 0x01
#define HSX_SVC_MODULE_FS 0x04
#define HSX_SVC_MODULE_MAILBOX 0x05
#define HSX_SVC_MODULE_EXEC 0x06
#define HSX_SVC_MODULE_VALUE 0x07
#define HSX_SVC_MODULE_COMMAND 0x08

#define HSX_ERR_ENOSYS 0xFFFFFF01u

#define __HSX_STR2(x) #x
#define __HSX_STR(x) __HSX_STR2(x)
/* "SVC m, f" as an asm template string. */
#define HSX_SVC_TEXT(mod, fn) "SVC " __HSX_STR(mod) ", " __HSX_STR(fn)

/* Call SVC (mod, fn) with up to five argument words in R1..R5; returns R0. */
#define HSX_SVC0(mod, fn) __extension__({ unsigned __r; \
    __asm__ volatile(HSX_SVC_TEXT(mod, fn) : "=r"(__r) : : "memory"); __r; })
#define HSX_SVC1(mod, fn, a) __extension__({ unsigned __r; \
    __asm__ volatile(HSX_SVC_TEXT(mod, fn) : "=r"(__r) : "r"((unsigned)(a)) : "memory"); __r; })
#define HSX_SVC2(mod, fn, a, b) __extension__({ unsigned __r; \
    __asm__ volatile(HSX_SVC_TEXT(mod, fn) : "=r"(__r) : "r"((unsigned)(a)), \
                     "r"((unsigned)(b)) : "memory"); __r; })
#define HSX_SVC3(mod, fn, a, b, c) __extension__({ unsigned __r; \
    __asm__ volatile(HSX_SVC_TEXT(mod, fn) : "=r"(__r) : "r"((unsigned)(a)), \
                     "r"((unsigned)(b)), "r"((unsigned)(c)) : "memory"); __r; })
#define HSX_SVC4(mod, fn, a, b, c, d) __extension__({ unsigned __r; \
    __asm__ volatile(HSX_SVC_TEXT(mod, fn) : "=r"(__r) : "r"((unsigned)(a)), \
                     "r"((unsigned)(b)), "r"((unsigned)(c)), "r"((unsigned)(d)) : "memory"); __r; })
#define HSX_SVC5(mod, fn, a, b, c, d, e) __extension__({ unsigned __r; \
    __asm__ volatile(HSX_SVC_TEXT(mod, fn) : "=r"(__r) : "r"((unsigned)(a)), \
                     "r"((unsigned)(b)), "r"((unsigned)(c)), "r"((unsigned)(d)), \
                     "r"((unsigned)(e)) : "memory"); __r; })

/* Number of instructions the task has retired. */
static inline unsigned hsx_steps(void) { return HSX_SVC0(0, 0); }

/* End the task with `status` (TASK_EXIT takes it in R0). */
static inline __attribute__((noreturn)) void hsx_exit(int status) {
    __asm__ volatile("MOV R0, %0\nSVC 1, 0" : : "r"(status));
    __builtin_unreachable();
}

/* Raw FS calls: fd 0 stdin, 1 stdout, 2 stderr. */
static inline int hsx_write(int fd, const void *buf, unsigned len) {
    return (int)HSX_SVC3(4, 2, fd, buf, len);
}
static inline int hsx_read(int fd, void *buf, unsigned len) {
    return (int)HSX_SVC3(4, 1, fd, buf, len);
}
#endif
