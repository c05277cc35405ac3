#include <stdio.h>
#include <stdlib.h>
static int cmp_int(const void *a, const void *b) { int x = *(const int *)a, y = *(const int *)b; return (x > y) - (x < y); }
int main(void) {
    int arr[20];
    for (int i = 0; i < 20; i++) arr[i] = (i * 37 + 11) % 50 - 25;
    qsort(arr, 20, sizeof arr[0], cmp_int);
    for (int i = 0; i < 20; i++) printf("%d ", arr[i]);
    printf("\n");
    int key = arr[7];
    int *found = bsearch(&key, arr, 20, sizeof arr[0], cmp_int);
    printf("%d %d\n", found ? (int)(found - arr) : -1, abs(-17));
    printf("%d %d %d\n", atoi("  -1234xyz"), atoi("+56"), atoi("abc"));
    char *end;
    printf("%ld %ld %ld\n", strtol("0x1F rest", &end, 0), strtol("0777", 0, 0), strtol("-101", 0, 2));
    printf("[%s] %lu %lld\n", end, strtoul("4294967295", 0, 10), strtoll("-9223372036854775807", 0, 10));
    div_t d = div(47, 5);
    printf("%d %d %lld\n", d.quot, d.rem, llabs(-5000000000LL));
    return arr[0] + 30;
}
