#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(void) {
    void *slots[64] = {0};
    unsigned seed = 12345, live = 0, checks = 0;
    for (int round = 0; round < 2000; round++) {
        seed = seed * 1103515245u + 12345u;
        int k = (seed >> 16) % 64;
        if (slots[k]) {
            unsigned char *p = slots[k];
            size_t n = p[0] | (p[1] << 8);
            for (size_t i = 2; i < n; i++) if (p[i] != (unsigned char)(k + i)) { printf("corrupt %d\n", k); return 1; }
            checks++;
            free(p); slots[k] = 0; live--;
        } else {
            size_t n = 2 + (seed >> 8) % 200;
            unsigned char *p = malloc(n);
            if (!p) { printf("oom\n"); return 2; }
            p[0] = n & 0xFF; p[1] = n >> 8;
            for (size_t i = 2; i < n; i++) p[i] = (unsigned char)(k + i);
            slots[k] = p; live++;
        }
    }
    printf("ok %u %u\n", live, checks);
    return 0;
}
