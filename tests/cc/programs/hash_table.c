#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#define SIZE 64
struct entry { char *key; int value; struct entry *next; };
static struct entry *table[SIZE];
static unsigned hash(const char *s) { unsigned h = 5381; while (*s) h = h * 33 + (unsigned char)*s++; return h; }
static void put(const char *k, int v) {
    unsigned i = hash(k) % SIZE;
    for (struct entry *e = table[i]; e; e = e->next) if (!strcmp(e->key, k)) { e->value = v; return; }
    struct entry *e = malloc(sizeof *e); e->key = strdup(k); e->value = v; e->next = table[i]; table[i] = e;
}
static int get(const char *k, int *out) {
    for (struct entry *e = table[hash(k) % SIZE]; e; e = e->next) if (!strcmp(e->key, k)) { *out = e->value; return 1; }
    return 0;
}
int main(void) {
    char key[16];
    for (int i = 0; i < 200; i++) { sprintf(key, "k%d", i % 77); put(key, i); }
    int total = 0, v;
    for (int i = 0; i < 100; i++) { sprintf(key, "k%d", i); if (get(key, &v)) total += v; }
    printf("%d %d\n", total, get("missing", &v));
    return total % 256;
}
