#include <stdio.h>
struct flags { unsigned a : 3; unsigned b : 5; signed c : 4; unsigned d : 20; };
struct packed_rgb { unsigned r : 5, g : 6, b : 5; };
int main(void) {
    struct flags f = {5, 17, -3, 99999};
    f.a += 3; f.b ^= 31; f.c -= 2; f.d *= 3;
    printf("%u %u %d %u\n", f.a, f.b, f.c, f.d);
    struct packed_rgb px[4];
    for (int i = 0; i < 4; i++) { px[i].r = i * 9; px[i].g = i * 21; px[i].b = 31 - i; }
    unsigned sum = 0;
    for (int i = 0; i < 4; i++) sum += px[i].r * 1000 + px[i].g * 10 + px[i].b;
    printf("%u\n", sum);
    return f.c & 0xF;
}
