#include <stdio.h>
#include <string.h>
int main(void) {
    char a[64] = "hello";
    char b[32];
    strcpy(b, " world");
    strcat(a, b);
    printf("%s %u\n", a, (unsigned)strlen(a));
    printf("%d %d %d\n", strcmp("abc", "abd") < 0, strcmp("b", "a") > 0, strncmp("abcx", "abcy", 3));
    printf("%s|%s|%s\n", strchr(a, 'o'), strrchr(a, 'o'), strstr(a, "wor"));
    char t[40] = "a,b;;c,dd";
    for (char *tok = strtok(t, ",;"); tok; tok = strtok(0, ",;")) printf("[%s]", tok);
    printf("\n");
    char m[16];
    memset(m, 'x', sizeof m);
    memcpy(m + 2, "AB", 2);
    memmove(m + 4, m, 8);
    m[15] = 0;
    printf("%s %d %u %u\n", m, memcmp("ab", "ac", 2) < 0, (unsigned)strspn("aabbc", "ab"), (unsigned)strcspn("xyz,", ","));
    return (int)strlen(a);
}
