/* Function pointers: dispatch tables, pointers in structs, functions returning function
 * pointers, callbacks with qsort/bsearch, pointers compared and stored in arrays. */
#include <stdio.h>
#include <stdlib.h>

typedef int (*binop)(int, int);
static int add(int a, int b) { return a + b; }
static int sub(int a, int b) { return a - b; }
static int mul(int a, int b) { return a * b; }
static int maxi(int a, int b) { return a > b ? a : b; }

static const struct { char sym; binop fn; } ops[] = {
    { '+', add }, { '-', sub }, { '*', mul }, { 'M', maxi },
};

static binop lookup(char c) {
    for (unsigned i = 0; i < sizeof ops / sizeof ops[0]; i++)
        if (ops[i].sym == c)
            return ops[i].fn;
    return NULL;
}

static int apply_all(binop const *fns, int n, int a, int b) {
    int t = 0;
    for (int i = 0; i < n; i++)
        t = t * 100 + fns[i](a, b);
    return t;
}

static int cmp_desc(const void *a, const void *b) {
    return *(const int *)b - *(const int *)a;
}
static int cmp_asc(const void *a, const void *b) {
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

typedef void (*state_fn)(int *);
static void s_double(int *v) { *v *= 2; }
static void s_inc(int *v) { *v += 1; }
static state_fn next_state(int v) { return v % 2 ? s_double : s_inc; }

static double twice(double (*f)(double), double x) { return f(f(x)); }
static double halve(double x) { return x / 2; }

int main(void) {
    const char *prog = "+-*M";
    for (const char *p = prog; *p; p++)
        printf("%c:%d ", *p, lookup(*p)(7, 3));
    printf("%d\n", lookup('?') == NULL);
    binop row[3] = { mul, add, sub };
    printf("%d\n", apply_all(row, 3, 6, 4));
    int v[] = { 5, 3, 9, 1, 7, 2, 8 };
    qsort(v, 7, sizeof v[0], cmp_desc);
    for (int i = 0; i < 7; i++)
        printf("%d", v[i]);
    qsort(v, 7, sizeof v[0], cmp_asc);
    int key = 7, *hit = bsearch(&key, v, 7, sizeof v[0], cmp_asc);
    printf(" %d\n", (int)(hit - v));
    int state = 1;
    for (int i = 0; i < 8; i++) {
        next_state(state)(&state);
        printf("%d ", state);
    }
    printf("\n%.3f %d %d\n", twice(halve, 10.0), add == ops[0].fn, (binop)sub != (binop)add);
    int (*grid[2][2])(int, int) = { { add, sub }, { mul, maxi } };
    printf("%d\n", grid[1][0](grid[0][1](10, 4), grid[0][0](1, 1)));
    return 0;
}
