/* crt0 and crtend of the Thumb-2 and wasm32 builds of the density benchmark (what
 * lib/crt0.mvasm and lib/crtend.mvasm give an HSX program): the environment and the
 * heap's start the C library refers to, and _start, which runs main and exits.  The
 * library's setjmp and longjmp are MVASM (lib/src/setjmp.mvasm); here they are
 * stand-ins of about the size of a real one, which only have to link. */
#include <setjmp.h>

int main(int argc, char **argv);
void exit(int status);

char **__hsx_environ;
char __hsx_heap_base[16];
static char *no_arguments[1];

void _start(void)
{
    exit(main(0, no_arguments));
}

int setjmp(jmp_buf env)
{
    for (int k = 0; k < 11; k++)
        env[k] = (unsigned long)&env[k];
    return 0;
}

void longjmp(jmp_buf env, int value)
{
    for (;;)
        env[value & 7]++;
}
