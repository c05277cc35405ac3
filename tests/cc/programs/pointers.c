#include <stdio.h>
static void swap(int *a, int *b) { int t = *a; *a = *b; *b = t; }
static int sum(const int *p, int n) { int s = 0; for (const int *e = p + n; p < e; p++) s += *p; return s; }
static void set(int **pp, int *target) { *pp = target; }
int main(void) {
    int x = 3, y = 4;
    swap(&x, &y);
    int arr[10];
    for (int i = 0; i < 10; i++) arr[i] = i * i;
    int *p = arr + 3;
    int *q = &arr[8];
    printf("%d %d %d %d %d\n", x, y, sum(arr, 10), (int)(q - p), p[2]);
    int *ptr = 0;
    set(&ptr, &arr[5]);
    *ptr += 100;
    int m[3][4];
    for (int i = 0; i < 3; i++) for (int j = 0; j < 4; j++) m[i][j] = i * 10 + j;
    int (*row)[4] = m + 1;
    printf("%d %d %d\n", arr[5], row[1][2], *(*(m + 2) + 3));
    char buf[8]; char *c = buf;
    for (int i = 0; i < 7; i++) *c++ = 'a' + i;
    *c = 0;
    printf("%s %d\n", buf, (int)(c - buf));
    return arr[5] & 0xFF;
}
