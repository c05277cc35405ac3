/* string.h: every function, with overlapping moves, embedded zeros in mem*, empty
 * strings, and the sign of compares. */
#include <stdio.h>
#include <string.h>
#include <stdlib.h>

static int sign(int v) { return (v > 0) - (v < 0); }

int main(void) {
    char buf[64] = "hello";
    printf("%u %u %u\n", (unsigned)strlen(buf), (unsigned)strlen(""),
           (unsigned)strnlen("abcdef", 3));
    strcat(buf, ", world");
    strncat(buf, "!!!???", 3);
    printf("%s\n", buf);
    char copy[64];
    strcpy(copy, buf);
    strncpy(copy, "HE", 2);
    printf("%s %d\n", copy, sign(strcmp(copy, buf)));
    char pad[8];
    strncpy(pad, "ab", sizeof pad);
    printf("%d %d\n", pad[2] == 0, pad[7] == 0);
    printf("%d %d %d %d %d\n", sign(strcmp("abc", "abd")), sign(strcmp("b", "a")),
           strcmp("same", "same"), sign(strncmp("abcX", "abcY", 3)),
           sign(strcmp("\xff", "a")));
    printf("%s %s %s\n", strchr(buf, 'o'), strrchr(buf, 'o'), strstr(buf, "wor"));
    printf("%d %d %d\n", strchr(buf, 'z') == NULL, strstr(buf, "") == buf,
           *strchr(buf, 0) == 0);
    printf("%u %u %s\n", (unsigned)strspn("aabbcx", "ab"), (unsigned)strcspn("xyz,abc", ",;"),
           strpbrk("find the vowel", "aeiou"));
    char text[] = "  split, these;words ,here";
    for (char *tok = strtok(text, " ,;"); tok; tok = strtok(NULL, " ,;"))
        printf("<%s>", tok);
    printf("\n");
    char mem[16] = "0123456789";
    memmove(mem + 2, mem, 8);
    printf("%s\n", mem);
    memmove(mem, mem + 3, 6);
    printf("%s\n", mem);
    memset(mem, '*', 4);
    printf("%s\n", mem);
    unsigned char z1[4] = { 1, 0, 2, 3 }, z2[4] = { 1, 0, 2, 4 };
    printf("%d %d %d\n", sign(memcmp(z1, z2, 4)), memcmp(z1, z2, 3),
           (int)((unsigned char *)memchr(z1, 2, 4) - z1));
    char *d = strdup("duplicate");
    printf("%s %d\n", d, d != NULL);
    free(d);
    char dst[10];
    memcpy(dst, "abc\0def", 8);
    printf("%s %s\n", dst, dst + 4);
    printf("%s\n", strerror(0));
    return 0;
}
