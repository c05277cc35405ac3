#include <stdio.h>
int main(void) {
    char s[] = "\x80\xff\x01\x7f";
    int total = 0;
    for (int i = 0; i < 4; i++) { total += s[i]; printf("%d %u %d\n", s[i], (unsigned char)s[i], s[i] < 0); }
    unsigned char u = 255; signed char c = (signed char)u;
    printf("%d %d %d\n", total, c, u + c);
    return total & 0xFF;
}
