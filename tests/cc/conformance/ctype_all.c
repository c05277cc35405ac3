/* ctype.h: every class for every value from EOF to 255, and case mapping. */
#include <stdio.h>
#include <ctype.h>

int main(void) {
    int (*const fns[])(int) = { isalnum, isalpha, isblank, iscntrl, isdigit, isgraph,
                                islower, isprint, ispunct, isspace, isupper, isxdigit };
    const char *names = "AaBCDGLPPSUX";
    for (int f = 0; f < 12; f++) {
        unsigned h = 0;
        int count = 0;
        for (int c = -1; c < 256; c++) {
            int in = fns[f](c) != 0;
            count += in;
            h = h * 31 + (unsigned)in * (unsigned)(c + 2);
        }
        printf("%c %d %08x\n", names[f], count, h);
    }
    for (int c = 0; c < 128; c++)
        if (toupper(c) != c || tolower(c) != c)
            putchar(toupper(c) != c ? toupper(c) : tolower(c));
    printf("\n%d %d %d\n", toupper(EOF), tolower(200), toupper(255));
    return 0;
}
