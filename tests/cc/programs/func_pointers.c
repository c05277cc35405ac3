#include <stdio.h>
typedef int (*binop)(int, int);
static int add(int a, int b) { return a + b; }
static int sub(int a, int b) { return a - b; }
static int mul(int a, int b) { return a * b; }
static binop table[] = { add, sub, mul };
static const char *names[] = { "add", "sub", "mul" };
struct op { const char *name; binop fn; };
static struct op ops[] = { {"plus", add}, {"times", mul} };
static int apply(binop f, int a, int b) { return f(a, b); }
static binop pick(int i) { return table[i % 3]; }
int main(void) {
    for (int i = 0; i < 3; i++) printf("%s %d\n", names[i], table[i](7, 3));
    for (int i = 0; i < 2; i++) printf("%s %d\n", ops[i].name, apply(ops[i].fn, 6, 5));
    int acc = 1;
    for (int i = 0; i < 6; i++) acc = pick(i)(acc, i + 2);
    printf("%d\n", acc);
    int (*fp)(int, int) = &sub;
    return (*fp)(50, 8);
}
