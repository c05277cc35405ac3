/* What the stdio functions return (as glibc: puts the count written, fputs 1, fgets
 * with room for the terminator only an empty string) and the end-of-file and error
 * flags through a stream's life. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>
int main(void) {
    int a = puts("hello"); int b = fputs("world\n", stdout); int c = putchar('x'); int d = fputc('\n', stdout);
    int e = printf("%s\n", "abc"); int f = fprintf(stdout, "%d\n", 12345);
    printf("%d %d %d %d %d %d\n", a, b, c, d, e, f);
    FILE *fp = fopen("t.txt", "w+"); int g = fputs("", fp); int h = fputs("line\n", fp); size_t w = fwrite("abc", 1, 3, fp);
    int s = fseek(fp, 0, SEEK_SET); int u = ungetc('Q', fp); int r = fgetc(fp); int u2 = ungetc(EOF, fp);
    int fl = fflush(fp); int cl = fclose(fp);
    printf("%d %d %zu %d %d %d %d %d %d\n", g, h, w, s, u, r, u2, fl, cl);
    fp = fopen("t.txt", "r"); char buf[16]; char *p = fgets(buf, 1, fp); char *q = fgets(buf, 2, fp); printf("%d %d [%s] %d %d\n", p == NULL, q == buf, buf, feof(fp), fgetc(fp)); 
    while (fgetc(fp) != EOF) {} printf("%d %d %d\n", feof(fp), ferror(fp), fgetc(fp)); clearerr(fp); printf("%d\n", feof(fp)); fclose(fp);
    printf("%d %d\n", remove("t.txt"), rename("nope", "nope2"));
    printf("%d %d %d\n", sprintf(buf, "%5d", 3), snprintf(buf, 0, "abc"), snprintf(NULL, 0, "%s", "hello"));
    printf("%d\n", fputs("", stdout));
    printf("%d %d\n", setvbuf(stdout, NULL, _IOLBF, 0), fflush(NULL));
    return 0;
}
