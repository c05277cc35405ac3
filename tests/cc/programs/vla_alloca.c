#include <stdio.h>
static int sum_vla(int n) {
    int a[n];
    for (int i = 0; i < n; i++) a[i] = i * 3 + 1;
    int s = 0;
    for (int i = 0; i < n; i++) s += a[i];
    return s;
}
static int nested(int n) {
    int total = 0;
    for (int k = 1; k <= n; k++) { char buf[k + 1]; for (int i = 0; i < k; i++) buf[i] = 'a' + i; buf[k] = 0; total += buf[k - 1]; }
    return total;
}
int main(void) {
    printf("%d %d %d\n", sum_vla(10), sum_vla(100), nested(20));
    return sum_vla(5);
}
