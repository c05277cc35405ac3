#include <stdio.h>
#include <stdlib.h>
struct node { int key; struct node *l, *r; };
static struct node *insert(struct node *t, int k) {
    if (!t) { t = malloc(sizeof *t); t->key = k; t->l = t->r = 0; return t; }
    if (k < t->key) t->l = insert(t->l, k); else if (k > t->key) t->r = insert(t->r, k);
    return t;
}
static int height(struct node *t) { if (!t) return 0; int a = height(t->l), b = height(t->r); return 1 + (a > b ? a : b); }
static void inorder(struct node *t) { if (!t) return; inorder(t->l); printf("%d ", t->key); inorder(t->r); }
static int count(struct node *t) { return t ? 1 + count(t->l) + count(t->r) : 0; }
int main(void) {
    struct node *root = 0;
    unsigned s = 99;
    for (int i = 0; i < 40; i++) { s = s * 69069u + 1; root = insert(root, (int)(s % 100)); }
    inorder(root);
    printf("\nn=%d h=%d\n", count(root), height(root));
    return count(root);
}
