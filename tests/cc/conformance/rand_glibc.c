/* rand and srand give glibc's numbers (random's TYPE_3 generator), for the default
 * seed, seed 0 (taken as 1), seeds with the top bit set, and many draws. */
#include <stdio.h>
#include <stdlib.h>
int main(void) {
    for (int i = 0; i < 5; i++) printf("%d ", rand()); printf("\n");
    unsigned seeds[] = {0, 1, 42, 12345, 0x80000000u, 0xFFFFFFFFu, 2147483647u};
    for (int s = 0; s < 7; s++) { srand(seeds[s]); for (int i = 0; i < 6; i++) printf("%d ", rand()); printf("\n"); }
    srand(7); long long sum = 0; for (int i = 0; i < 10000; i++) sum += rand() % 1000; printf("%lld %d\n", sum, RAND_MAX);
    return 0;
}
