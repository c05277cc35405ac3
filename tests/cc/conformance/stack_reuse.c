/* Locals of functions inlined into one caller: four helpers with 2.5 KB buffers each
 * are inlined into main at -O1/-O2/-Os; they fit the 8 KB stack only when buffers that
 * are never live together share memory (stack colouring).  Buffers that ARE live
 * together (nested scopes, a loop carrying one while another is filled) must not. */
#include <stdio.h>
#include <string.h>

static int fill_and_sum(int seed) {
    unsigned char buf[2500];
    for (int i = 0; i < 2500; i++)
        buf[i] = (unsigned char)(i * seed + 3);
    int s = 0;
    for (int i = 0; i < 2500; i += 5)
        s += buf[i];
    return s;
}

static int words(const char *text) {
    char copy[2500];
    strncpy(copy, text, sizeof copy - 1);
    copy[sizeof copy - 1] = 0;
    int n = 0;
    for (char *p = strtok(copy, " "); p; p = strtok(NULL, " "))
        n++;
    return n;
}

static long checksum(int k) {
    int table[625];
    for (int i = 0; i < 625; i++)
        table[i] = i * k;
    long t = 0;
    for (int i = 624; i >= 0; i -= 7)
        t += table[i];
    return t;
}

static int reverse_count(int k) {
    char a[2500];
    memset(a, 'a' + k, sizeof a);
    a[k] = 0;
    return (int)strlen(a);
}

int main(void) {
    int total = 0;
    total += fill_and_sum(3);
    total += words("the quick brown fox jumps over the lazy dog");
    total += (int)checksum(5);
    total += reverse_count(17);
    total += fill_and_sum(7);
    printf("%d\n", total);

    char outer[100];                      /* live while the inner ones come and go */
    memset(outer, 'o', sizeof outer);
    for (int round = 0; round < 3; round++) {
        char first[100], second[100];
        memset(first, 'f' + round, sizeof first);
        {
            char inner[100];
            memset(inner, 'i', sizeof inner);
            memcpy(second, inner, 50);
            memcpy(second + 50, first, 50);
        }
        printf("%c%c%c %c%c\n", outer[0], first[99], second[0], second[99], outer[99]);
    }
    int carried[64];
    for (int i = 0; i < 64; i++)
        carried[i] = i;
    for (int round = 0; round < 4; round++) {
        int scratch[64];
        for (int i = 0; i < 64; i++)
            scratch[i] = carried[63 - i] + round;
        for (int i = 0; i < 64; i++)
            carried[i] = scratch[i];
    }
    printf("%d %d\n", carried[0], carried[63]);
    return 0;
}
