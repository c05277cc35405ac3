/* Flexible array members: sizeof, malloc'd instances, static instances with an
 * initialised tail (a GNU extension clang accepts), copying the fixed part. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct msg { int len; char kind; char data[]; };
struct vec { unsigned n; double v[]; };
struct words { short count; const char *w[]; };

static struct words ws = { 3, { "x", "yy", "zzz" } };

static struct msg *make(char kind, const char *text) {
    size_t n = strlen(text);
    struct msg *m = malloc(sizeof *m + n + 1);
    m->len = (int)n;
    m->kind = kind;
    memcpy(m->data, text, n + 1);
    return m;
}

int main(void) {
    printf("%d %d\n", (int)sizeof(struct msg), (int)sizeof(struct vec));
    struct msg *m = make('T', "flexible");
    printf("%c %d %s %c\n", m->kind, m->len, m->data, m->data[m->len - 1]);
    struct vec *v = malloc(sizeof *v + 5 * sizeof(double));
    v->n = 5;
    for (unsigned i = 0; i < v->n; i++)
        v->v[i] = i * 0.5;
    double t = 0;
    for (unsigned i = 0; i < v->n; i++)
        t += v->v[i];
    printf("%u %.2f\n", v->n, t);
    struct msg head = *m;              /* copies only the fixed part */
    printf("%c %d\n", head.kind, head.len);
    for (int i = 0; i < ws.count; i++)
        printf("%s ", ws.w[i]);
    printf("\n");
    free(m);
    free(v);
    return 0;
}
