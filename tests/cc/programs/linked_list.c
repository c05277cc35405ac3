#include <stdio.h>
#include <stdlib.h>
typedef struct item { char name[12]; int qty; struct item *next; } item;
static item *push(item *head, const char *name, int qty) {
    item *it = malloc(sizeof *it);
    int i = 0; for (; name[i] && i < 11; i++) it->name[i] = name[i]; it->name[i] = 0;
    it->qty = qty; it->next = head; return it;
}
static item *reverse(item *h) { item *prev = 0; while (h) { item *n = h->next; h->next = prev; prev = h; h = n; } return prev; }
static item *remove_if(item *h, int limit) {
    item **pp = &h;
    while (*pp) { if ((*pp)->qty < limit) { item *dead = *pp; *pp = dead->next; free(dead); } else pp = &(*pp)->next; }
    return h;
}
int main(void) {
    const char *names[] = {"apple", "pear", "fig", "kiwi", "plum", "lime", "date"};
    item *h = 0;
    for (int i = 0; i < 7; i++) h = push(h, names[i], (i * 7) % 10);
    h = reverse(h);
    h = remove_if(h, 4);
    int total = 0;
    for (item *p = h; p; p = p->next) { printf("%s:%d ", p->name, p->qty); total += p->qty; }
    printf("\n");
    return total;
}
