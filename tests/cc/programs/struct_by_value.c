#include <stdio.h>
struct vec { int x, y, z; };
struct big { int a[8]; char tag; long long sum; };
static struct vec add(struct vec a, struct vec b) { struct vec r = { a.x + b.x, a.y + b.y, a.z + b.z }; return r; }
static struct vec scale(struct vec v, int k) { v.x *= k; v.y *= k; v.z *= k; return v; }
static struct big fill(char tag) {
    struct big b; b.tag = tag; b.sum = 0;
    for (int i = 0; i < 8; i++) { b.a[i] = i * tag; b.sum += b.a[i]; }
    return b;
}
static long long total(struct big b, int extra) { b.a[0] = 1000; long long s = extra; for (int i = 0; i < 8; i++) s += b.a[i]; return s + b.sum; }
int main(void) {
    struct vec a = {1, 2, 3}, b = {10, 20, 30};
    struct vec c = add(scale(a, 3), b);
    printf("%d %d %d\n", c.x, c.y, c.z);
    struct big g = fill(3);
    printf("%lld %lld %d\n", total(g, 5), g.sum, g.a[0]);
    struct vec arr[3] = {a, b, c};
    struct vec s = {0, 0, 0};
    for (int i = 0; i < 3; i++) s = add(s, arr[i]);
    printf("%d %d %d\n", s.x, s.y, s.z);
    return s.x;
}
