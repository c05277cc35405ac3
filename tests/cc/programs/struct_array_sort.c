#include <stdio.h>
#include <stdlib.h>
#include <string.h>
struct person { char name[16]; int age; double score; };
static int by_age(const void *a, const void *b) { const struct person *x = a, *y = b; return x->age - y->age; }
static int by_name(const void *a, const void *b) { return strcmp(((const struct person *)a)->name, ((const struct person *)b)->name); }
int main(void) {
    struct person p[] = { {"zoe", 31, 88.5}, {"adam", 25, 91.25}, {"mia", 44, 70.0}, {"bob", 19, 65.75}, {"eve", 38, 99.0} };
    qsort(p, 5, sizeof p[0], by_age);
    for (int i = 0; i < 5; i++) printf("%s %d %.2f\n", p[i].name, p[i].age, p[i].score);
    qsort(p, 5, sizeof p[0], by_name);
    double avg = 0; for (int i = 0; i < 5; i++) { printf("%s ", p[i].name); avg += p[i].score; }
    printf("\navg=%.3f\n", avg / 5);
    return p[0].age;
}
