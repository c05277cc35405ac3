/* Structs and unions copied, passed and returned by value: small, large, nested,
 * with arrays, through function pointers and in varargs-free chains. */
#include <stdio.h>
#include <string.h>

struct pair { int a, b; };
struct mixed { char c; double d; short s; long long ll; };
struct big { int v[20]; char name[12]; };
union number { int i; float f; unsigned char bytes[4]; };
struct nested { struct pair p; union number n; struct mixed m; };

static struct pair swap(struct pair p) { return (struct pair){ p.b, p.a }; }
static struct mixed scale(struct mixed m, int k) {
    m.c += (char)k; m.d *= k; m.s = (short)(m.s * k); m.ll *= k;
    return m;
}
static struct big fill(int base, const char *name) {
    struct big b;
    for (int i = 0; i < 20; i++)
        b.v[i] = base + i * i;
    strcpy(b.name, name);
    return b;
}
static int total(struct big b) {
    int t = 0;
    for (int i = 0; i < 20; i++)
        t += b.v[i];
    b.v[0] = -1;                        /* the caller's copy is untouched */
    return t;
}
static union number as_float(float f) { union number n; n.f = f; return n; }
static struct nested build(int x) {
    struct nested n = { { x, -x }, { 0 }, { 'a', x / 4.0, (short)x, (long long)x << 33 } };
    n.n.i = x * 1000;
    return n;
}
static struct pair (*pick(int k))(struct pair) { return k ? swap : 0; }

int main(void) {
    struct pair p = { 3, 4 }, q = swap(p);
    printf("%d %d -> %d %d\n", p.a, p.b, q.a, q.b);
    struct mixed m = scale((struct mixed){ 'A', 1.5, 300, 1LL << 40 }, 3);
    printf("%c %.2f %d %lld\n", m.c, m.d, m.s, m.ll);
    struct big b = fill(7, "seven");
    printf("%d %d %s\n", total(b), b.v[0], b.name);
    struct big c = b;
    c.v[19] = 0;
    printf("%d %d\n", b.v[19], c.v[19]);
    union number n = as_float(1.0f);
    printf("%08X %u\n", (unsigned)n.i, n.bytes[3]);
    struct nested t = build(12), u;
    u = t;
    t.p.a = 99;
    printf("%d %d %d %c %.2f %d %lld\n", u.p.a, u.p.b, u.n.i, u.m.c, u.m.d, u.m.s, u.m.ll);
    struct pair r = pick(1)(q);
    printf("%d %d %d\n", r.a, r.b, pick(0) == 0);
    struct pair arr[3] = { { 1, 2 }, { 3, 4 }, { 5, 6 } }, arr2[3];
    memcpy(arr2, arr, sizeof arr);
    arr2[1] = swap(arr2[1]);
    printf("%d %d %d %d\n", arr[1].a, arr2[1].a, arr2[2].b, (int)sizeof(struct pair));
    struct mixed zero = { 0 };
    printf("%d %.1f %d %lld\n", zero.c, zero.d, zero.s, zero.ll);
    return 0;
}
