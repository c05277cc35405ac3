#include <stdio.h>
#include <stdint.h>
static int code(uint32_t x) {
    switch (x) {
    case 7: return 1; case 100: return 2; case 1000: return 3; case 65536: return 4;
    case 0xFFFFFFFFu: return 5; case 0x80000000u: return 6; default: return 0;
    }
}
static int sc(signed char c) {
    switch (c) { case -1: return 10; case -128: return 20; case 127: return 30; case 0: return 40; }
    return -1;
}
static int sw64(long long v) {
    switch (v) { case 1LL << 40: return 1; case -5: return 2; case 3: return 3; }
    return 0;
}
int main(void) {
    uint32_t xs[] = {7, 100, 1000, 65536, 0xFFFFFFFFu, 0x80000000u, 5, 101};
    int s = 0;
    for (int i = 0; i < 8; i++) s = s * 7 + code(xs[i]);
    signed char cs[] = {-1, -128, 127, 0, 5};
    for (int i = 0; i < 5; i++) printf("%d ", sc(cs[i]));
    printf("\n%d %d %d %d %d\n", s, sw64(1LL << 40), sw64(-5), sw64(3), sw64(4));
    return s & 0xFF;
}
