/* Compound literals and designated initialisers (C99), including nesting, overriding,
 * array index designators, unions and file-scope compound literals. */
#include <stdio.h>

struct point { int x, y; };
struct rect { struct point min, max; const char *name; };
union value { int i; double d; char s[8]; };

static int *file_scope = (int[]){ 5, 6, 7 };
static struct rect unit = { .max = { .x = 1, .y = 1 }, .name = "unit" };
static int sparse[10] = { [2] = 20, [7] = 70, [3] = 30, 31, [9] = 90 };
static const char *names[] = { [3] = "three", [1] = "one" };
static struct point pts[] = { [1].y = 5, [0] = { 1, 2 }, [2].x = 9 };
static union value uv = { .d = 2.5 };
static union value us = { .s = "hi" };
static int grid[3][3] = { [0][0] = 1, [1] = { [1] = 5 }, [2][2] = 9 };
static int override[4] = { 1, 2, 3, 4, [1] = 20 };

static int sum(const int *v, int n) {
    int t = 0;
    for (int i = 0; i < n; i++)
        t += v[i];
    return t;
}
static int area(struct rect r) { return (r.max.x - r.min.x) * (r.max.y - r.min.y); }

int main(void) {
    printf("%d %d %d\n", file_scope[0], file_scope[2], sum(file_scope, 3));
    printf("%s %d %d %d %d\n", unit.name, unit.min.x, unit.min.y, unit.max.x, unit.max.y);
    for (int i = 0; i < 10; i++)
        printf("%d ", sparse[i]);
    printf("\n%s %s %d\n", names[1], names[3], names[0] == 0 && names[2] == 0);
    printf("%d %d %d %d %d %d %d\n", (int)(sizeof pts / sizeof pts[0]), pts[0].x, pts[0].y,
           pts[1].x, pts[1].y, pts[2].x, pts[2].y);
    printf("%.1f %s\n", uv.d, us.s);
    for (int i = 0; i < 3; i++)
        printf("%d%d%d ", grid[i][0], grid[i][1], grid[i][2]);
    printf("\n%d %d %d %d\n", override[0], override[1], override[2], override[3]);
    printf("%d\n", sum((int[]){ 1, 2, 3, 4, 5 }, 5));
    printf("%d\n", area((struct rect){ .min = { 1, 1 }, .max = { 4, 5 } }));
    struct point *p = &(struct point){ .y = 8 };
    p->x += 2;
    printf("%d %d\n", p->x, p->y);
    int total = 0;
    for (int i = 0; i < 3; i++) {
        int *v = (int[]){ i, i * 2, i * 3 };     /* a new object each time round */
        total += v[0] + v[1] + v[2];
    }
    printf("%d\n", total);
    const char *s = (const char[]){ 'o', 'k', 0 };
    printf("%s %d\n", s, ((struct point){ 3, 4 }).y);
    return 0;
}
