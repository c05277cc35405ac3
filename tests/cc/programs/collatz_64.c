#include <stdio.h>
#include <stdint.h>
int main(void) {
    uint64_t best = 0; int best_len = 0;
    for (uint64_t n = 1; n < 3000; n++) {
        uint64_t x = n; int len = 0;
        while (x != 1) { x = (x & 1) ? 3 * x + 1 : x >> 1; len++; }
        if (len > best_len) { best_len = len; best = n; }
    }
    printf("%llu %d\n", best, best_len);
    return best_len & 0xFF;
}
