/* Bit-fields: signed and unsigned, packing across units, wrap-around on store,
 * read-modify-write of neighbours, bit-fields in structs passed and returned by value. */
#include <stdio.h>

struct flags {
    unsigned a : 1;
    unsigned b : 3;
    signed c : 4;
    unsigned d : 24;
    int e : 7;
    unsigned long long big : 40;
    unsigned char tiny : 2;
};

struct pixel { unsigned r : 5, g : 6, b : 5; };

static struct pixel brighten(struct pixel p) {
    p.r = p.r < 31 ? p.r + 1 : 31;
    p.g += 3;                           /* wraps modulo 64 */
    p.b = ~p.b;
    return p;
}

int main(void) {
    struct flags f = { 1, 5, -3, 0xABCDEF, -60, 0x123456789AULL, 3 };
    printf("%u %u %d %X %d %llX %u\n", f.a, f.b, f.c, f.d, f.e, (unsigned long long)f.big,
           f.tiny);
    f.b += 4;                           /* 9 wraps to 1 */
    f.c = 7;
    f.c++;                              /* 8 does not fit: implementation-defined, -8 */
    f.d = 0x1FFFFFF;                    /* truncated to 24 bits */
    f.e = 63;
    f.big <<= 4;
    f.tiny = 6;
    printf("%u %d %X %d %llX %u %u\n", f.b, f.c, f.d, f.e, (unsigned long long)f.big, f.tiny,
           f.a);
    struct pixel p = { 30, 62, 1 };
    for (int i = 0; i < 3; i++) {
        p = brighten(p);
        printf("%u %u %u\n", p.r, p.g, p.b);
    }
    struct pixel q = p;
    q.g = 0;
    printf("%u %u\n", p.g, q.g);
    int count = 0;
    for (struct flags g = { 0 }; g.b < 7; g.b++)
        count++;
    printf("%d\n", count);
    return 0;
}
