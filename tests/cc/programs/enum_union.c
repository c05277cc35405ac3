#include <stdio.h>
enum kind { K_INT, K_FLOAT, K_STR };
struct value { enum kind kind; union { int i; float f; const char *s; } as; };
static void show(struct value v) {
    switch (v.kind) {
    case K_INT: printf("int %d\n", v.as.i); break;
    case K_FLOAT: printf("float %.3f\n", v.as.f); break;
    case K_STR: printf("str %s\n", v.as.s); break;
    }
}
int main(void) {
    struct value vs[3] = { {K_INT, {.i = 42}}, {K_FLOAT, {.f = 2.5f}}, {K_STR, {.s = "text"}} };
    for (int i = 0; i < 3; i++) show(vs[i]);
    union { unsigned u; float f; } pun = { .f = 1.0f };
    printf("%08x\n", pun.u);
    return vs[0].as.i;
}
