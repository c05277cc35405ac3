/* Address constants in static initialisers: pointer differences folded by the
 * compiler, negative and large offsets, pointers into the middle of objects. */
#include <stdio.h>
#include <stddef.h>

struct big { char pad[100]; int tail; } s = { { 1 }, 77 };
int arr[10] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9 };
int *before = &arr[-1];
int *last = &arr[9];
char *far = (char *)&s + 40000;
char *back = (char *)&s - 3000;
long diff = &arr[3] - &arr[0];
long bytes = (char *)&arr[7] - (char *)&arr[2];
long field = (char *)&s.tail - (char *)&s;
size_t off = offsetof(struct big, tail);
const char *strs[] = { "alpha", "beta", "gamma" + 2 };
struct node { int v; struct node *next; } n2 = { 2, 0 }, n1 = { 1, &n2 };
struct node ring[3] = { { 0, &ring[1] }, { 1, &ring[2] }, { 2, &ring[0] } };
int *mid = arr + 5;
char buf[16];
char *end = &buf[sizeof buf];
int (*fp)(const char *, ...) = printf;
static const int table[] = { 10, 20, 30 };
const int *const table_end = table + sizeof table / sizeof table[0];

int main(void) {
    printf("%d %d %ld %ld %ld %u\n", before[1], *last, diff, bytes, field, (unsigned)off);
    printf("%d %d\n", (int)(far - (char *)&s), (int)((char *)&s - back));
    printf("%d\n", ((struct big *)(far - 40000))->tail);
    printf("%s %s %s\n", strs[0], strs[1], strs[2]);
    printf("%d %d %d\n", n1.v, n1.next->v, *mid);
    int hops = 0;
    for (struct node *p = &ring[0]; hops < 7; p = p->next)
        hops++, printf("%d", p->v);
    printf("\n%d\n", (int)(end - buf));
    int sum = 0;
    for (const int *p = table; p != table_end; p++)
        sum += *p;
    fp("sum %d\n", sum);
    return 0;
}
