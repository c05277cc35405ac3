#include <stdio.h>
struct pt { int x, y; };
static int area(struct pt a, struct pt b) { return (b.x - a.x) * (b.y - a.y); }
static int sum(const int *p, int n) { int s = 0; while (n--) s += *p++; return s; }
int main(void) {
    int r = area((struct pt){1, 2}, (struct pt){.y = 10, .x = 6});
    int s = sum((int[]){1, 2, 3, 4, 5}, 5);
    struct pt pts[] = { [2] = {5, 5}, [0] = {1, 1} };
    int arr[10] = { [3] = 7, [8] = 9 };
    printf("%d %d %d %d %d %d\n", r, s, pts[1].x, pts[2].y, arr[3] + arr[8], arr[0]);
    return r;
}
