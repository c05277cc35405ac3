#include <stdio.h>
#include <stdlib.h>
#include <string.h>
struct node { int value; struct node *next; };
int main(void) {
    struct node *head = 0;
    for (int i = 0; i < 50; i++) {
        struct node *n = malloc(sizeof *n);
        n->value = i * 3; n->next = head; head = n;
    }
    long sum = 0; int count = 0;
    for (struct node *n = head; n; n = n->next) { sum += n->value; count++; }
    while (head) { struct node *next = head->next; free(head); head = next; }
    int *arr = calloc(100, sizeof(int));
    int zeros = 0;
    for (int i = 0; i < 100; i++) zeros += arr[i] == 0;
    arr = realloc(arr, 1000 * sizeof(int));
    for (int i = 0; i < 1000; i++) arr[i] = i;
    long s2 = 0; for (int i = 0; i < 1000; i++) s2 += arr[i];
    free(arr);
    char *s = malloc(32); strcpy(s, "dynamic"); char *d = strdup(s); free(s);
    printf("%ld %d %d %ld %s\n", sum, count, zeros, s2, d);
    free(d);
    return count;
}
