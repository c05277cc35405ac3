#include <stdio.h>
#include <stddef.h>
#include <stdint.h>
struct mixed { char c; int32_t i; short s; long long ll; char tail[3]; };
struct nested { struct mixed m; char flag; struct { short a, b; } pair[2]; };
union u { int32_t i; float f; unsigned char bytes[4]; };
int main(void) {
    printf("%u %u %u %u %u\n", (unsigned)offsetof(struct mixed, i), (unsigned)offsetof(struct mixed, s),
           (unsigned)offsetof(struct mixed, ll), (unsigned)offsetof(struct mixed, tail), (unsigned)sizeof(struct mixed));
    struct nested n;
    n.m.c = 'q'; n.m.i = -5; n.m.s = 300; n.m.ll = 1LL << 40; n.m.tail[2] = 9; n.flag = 1;
    n.pair[0].a = 1; n.pair[0].b = 2; n.pair[1].a = 3; n.pair[1].b = 4;
    struct nested copy = n;
    copy.pair[1].b = 44;
    printf("%c %d %d %lld %d %d %d %d\n", copy.m.c, copy.m.i, copy.m.s, copy.m.ll, copy.m.tail[2],
           n.pair[1].b, copy.pair[1].b, copy.pair[0].a + copy.pair[1].a);
    union u x; x.i = 0x41424344;
    printf("%c%c%c%c\n", x.bytes[0], x.bytes[1], x.bytes[2], x.bytes[3]);
    return (int)sizeof(struct nested);
}
