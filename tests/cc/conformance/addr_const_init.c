/* Address constants in static initialisers: casts to integers, offsets before and
 * inside arrays, string literal offsets, function pointers, nested aggregates. */
#include <stdio.h>
#include <stdint.h>
int x[8] = {10,11,12,13,14,15,16,17};
int m2[3][4] = {{1,2,3,4},{5,6,7,8},{9,10,11,12}};
intptr_t ip = (intptr_t)&x[2];
intptr_t ip2 = (intptr_t)&x + 12;
int *neg = x - 2;
int *neg2 = &x[2] - 3;
const char *lit = &"hello"[2];
char *nul = (char *)0 + 5;
int *row = m2[2];
int (*rowp)[4] = &m2[1];
int *cell = &m2[1][-1];
void f(void) {}
void (*fps[])(void) = { f, 0, f };
uintptr_t fpi = (uintptr_t)f;
struct P { int *p; const char *s; long long ll; double d; short h; char c[3]; } ps = { &x[7], "str" + 1, -5LL, 2.5, -3, "ab" };
union U { int *p; long long v; } uu = { .p = &x[1] };
struct Q { struct P *pp; int *ip; } q = { &ps, &x[3] };
intptr_t llp = (intptr_t)&x[1];
int main(void) {
    printf("%d %d %d %d\n", *(int *)ip, *(int *)ip2, neg[2], neg2[1]);
    printf("%s %ld\n", lit, (long)(nul - (char *)0));
    printf("%d %d %d\n", *row, (*rowp)[3], *cell);
    printf("%d %d\n", fps[0] == f, fps[1] == 0);
    printf("%d\n", (void (*)(void))fpi == f);
    printf("%d %s %lld %.1f %d %s\n", *ps.p, ps.s, ps.ll, ps.d, ps.h, ps.c);
    printf("%d %d\n", *uu.p, (int)(llp == (intptr_t)&x[1]));
    return 0;
}
