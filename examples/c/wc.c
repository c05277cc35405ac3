/* wc: the lines, words and bytes of each file named on the command line, and their
 * total (docs/c-compiler.md, "Arguments, environment and files"):
 *
 *     hsx run --root . examples/c/wc.c -- notes.txt todo.txt
 *
 * The files are the task's (here the current directory, given with --root).  With
 * WC_TOTAL_ONLY set in the environment (--env WC_TOTAL_ONLY=1) only the total is shown.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>

struct counts { long lines, words, bytes; };

static int count(const char *name, struct counts *c)
{
    FILE *in = fopen(name, "r");
    if (in == NULL) {
        perror(name);
        return 1;
    }
    int ch, in_word = 0;
    while ((ch = fgetc(in)) != EOF) {
        c->bytes++;
        if (ch == '\n')
            c->lines++;
        if (isspace(ch))
            in_word = 0;
        else if (!in_word) {
            in_word = 1;
            c->words++;
        }
    }
    fclose(in);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s FILE...\n", argv[0]);
        return 2;
    }
    int failed = 0, total_only = getenv("WC_TOTAL_ONLY") != NULL;
    struct counts total = {0, 0, 0};
    for (int i = 1; i < argc; i++) {
        struct counts c = {0, 0, 0};
        failed |= count(argv[i], &c);
        if (!total_only)
            printf("%7ld %7ld %7ld %s\n", c.lines, c.words, c.bytes, argv[i]);
        total.lines += c.lines;
        total.words += c.words;
        total.bytes += c.bytes;
    }
    printf("%7ld %7ld %7ld total\n", total.lines, total.words, total.bytes);
    return failed;
}
