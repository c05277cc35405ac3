#include <stdio.h>
static void bubble(int *a, int n) { for (int i = 0; i < n; i++) for (int j = 0; j + 1 < n - i; j++) if (a[j] > a[j + 1]) { int t = a[j]; a[j] = a[j + 1]; a[j + 1] = t; } }
static void quick(int *a, int lo, int hi) {
    if (lo >= hi) return;
    int p = a[(lo + hi) / 2], i = lo, j = hi;
    while (i <= j) {
        while (a[i] < p) i++;
        while (a[j] > p) j--;
        if (i <= j) { int t = a[i]; a[i] = a[j]; a[j] = t; i++; j--; }
    }
    quick(a, lo, j); quick(a, i, hi);
}
static void merge_sort(int *a, int *tmp, int n) {
    if (n < 2) return;
    int m = n / 2;
    merge_sort(a, tmp, m); merge_sort(a + m, tmp, n - m);
    int i = 0, j = m, k = 0;
    while (i < m && j < n) tmp[k++] = a[i] <= a[j] ? a[i++] : a[j++];
    while (i < m) tmp[k++] = a[i++];
    while (j < n) tmp[k++] = a[j++];
    for (k = 0; k < n; k++) a[k] = tmp[k];
}
int main(void) {
    int a[64], b[64], c[64], tmp[64];
    unsigned s = 7;
    for (int i = 0; i < 64; i++) { s = s * 1664525u + 1013904223u; a[i] = b[i] = c[i] = (int)(s >> 20) - 2048; }
    bubble(a, 64); quick(b, 0, 63); merge_sort(c, tmp, 64);
    int same = 1;
    for (int i = 0; i < 64; i++) if (a[i] != b[i] || b[i] != c[i]) same = 0;
    for (int i = 0; i < 64; i += 8) printf("%d ", a[i]);
    printf("\nsame=%d\n", same);
    return same;
}
