#include <stdio.h>
#include <stdlib.h>
typedef struct { int *data; int len, cap; } vec;
static void push(vec *v, int x) { if (v->len == v->cap) { v->cap = v->cap ? v->cap * 2 : 4; v->data = realloc(v->data, v->cap * sizeof(int)); } v->data[v->len++] = x; }
int main(void) {
    vec v = {0, 0, 0};
    for (int i = 0; i < 300; i++) push(&v, i * i % 1000);
    long s = 0; int mx = 0;
    for (int i = 0; i < v.len; i++) { s += v.data[i]; if (v.data[i] > mx) mx = v.data[i]; }
    printf("%d %d %ld %d\n", v.len, v.cap, s, mx);
    free(v.data);
    return v.len & 0xFF;
}
