/* setjmp.h: non-local jumps (lib/src/setjmp.mvasm).  A jmp_buf holds the callee-saved
 * registers R6-R13, the frame pointer R14, the stack pointer and the return address. */
#ifndef _HSX_SETJMP_H
#define _HSX_SETJMP_H
typedef unsigned long jmp_buf[11];
int setjmp(jmp_buf env) __attribute__((returns_twice));
__attribute__((noreturn)) void longjmp(jmp_buf env, int value);
#define _setjmp setjmp
#define _longjmp longjmp
#endif
