/* A longjmp back into a block whose locals the back end would otherwise consider dead:
 * functions that call setjmp keep every local in a slot of its own (no stack
 * colouring), as LLVM does. */
#include <stdio.h>
#include <setjmp.h>
#include <string.h>
static jmp_buf jb;
static void use(char *p) { __asm__ volatile("" : : "r"(p) : "memory"); }
static int phase;
int main(void) {
    {
        char a[100];
        memset(a, 'a', sizeof a);
        use(a);
        if (setjmp(jb)) {
            printf("back %c %d\n", a[50], phase);
            return 0;
        }
    }
    {
        char b[100];
        memset(b, 'b', sizeof b);
        use(b);
        phase = 1;
        longjmp(jb, 1);
    }
}
