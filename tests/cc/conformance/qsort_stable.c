/* qsort sorts like glibc's (a stable merge sort): records with equal keys keep their
 * order, so the output matches; large arrays, strings, empty and single arrays. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
struct rec { int key; int order; char tag[3]; };
static int by_key(const void *a, const void *b) { return ((const struct rec *)a)->key - ((const struct rec *)b)->key; }
static int by_mod(const void *a, const void *b) { return *(const int *)a % 7 - *(const int *)b % 7; }
static int cmp_int(const void *a, const void *b) { int x = *(const int *)a, y = *(const int *)b; return (x > y) - (x < y); }
static int calls;
static int counting(const void *a, const void *b) { calls++; return cmp_int(a, b); }
int main(void) {
    struct rec r[40];
    for (int i = 0; i < 40; i++) { r[i].key = (i * 7) % 5; r[i].order = i; r[i].tag[0] = 'a' + i % 26; r[i].tag[1] = 0; }
    qsort(r, 40, sizeof r[0], by_key);
    for (int i = 0; i < 40; i++) printf("%d:%d ", r[i].key, r[i].order); printf("\n");
    int v[300]; for (int i = 0; i < 300; i++) v[i] = (i * 7919) % 1000;
    qsort(v, 300, sizeof v[0], by_mod); for (int i = 0; i < 300; i += 13) printf("%d ", v[i]); printf("\n");
    qsort(v, 300, sizeof v[0], cmp_int); int ok = 1; for (int i = 1; i < 300; i++) ok &= v[i - 1] <= v[i]; printf("%d %d %d\n", ok, v[0], v[299]);
    static int big[2000]; for (int i = 0; i < 2000; i++) big[i] = 2000 - i; qsort(big, 2000, sizeof(int), cmp_int); printf("%d %d %d\n", big[0], big[999], big[1999]);
    char words[][8] = {"pear", "fig", "apple", "fig", "kiwi", "apple", "date"}; qsort(words, 7, 8, (int (*)(const void *, const void *))strcmp);
    for (int i = 0; i < 7; i++) printf("%s ", words[i]); printf("\n");
    qsort(v, 0, sizeof v[0], cmp_int); qsort(v, 1, sizeof v[0], cmp_int);
    int w[50]; for (int i = 0; i < 50; i++) w[i] = (i * 37) % 50; calls = 0; qsort(w, 50, sizeof w[0], counting); printf("%d %d\n", w[0], w[49]);
    return 0;
}
