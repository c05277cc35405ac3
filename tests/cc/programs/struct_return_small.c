#include <stdio.h>
struct one { int v; };
struct two { short a, b; };
struct ch3 { char c[3]; };
static struct one mk1(int v) { struct one o = { v * 2 }; return o; }
static struct two mk2(int a, int b) { struct two t = { (short)a, (short)b }; return t; }
static struct ch3 mk3(char x) { struct ch3 c = { { x, (char)(x + 1), (char)(x + 2) } }; return c; }
static int use(struct one o, struct two t, struct ch3 c) { return o.v + t.a * t.b + c.c[0] + c.c[2]; }
int main(void) {
    struct one o = mk1(21); struct two t = mk2(3, -4); struct ch3 c = mk3('a');
    printf("%d %d %d %c%c%c %d\n", o.v, t.a, t.b, c.c[0], c.c[1], c.c[2], use(o, t, c));
    return use(mk1(1), mk2(2, 3), mk3(1));
}
