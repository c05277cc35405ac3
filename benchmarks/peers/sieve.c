/* Sieve of Eratosthenes, repeated: byte array loads and stores in tight loops. */
#include "peer.h"

static unsigned char composite[SIEVE_N + 1];

unsigned run(void)
{
    unsigned total = 0;
    for (int round = 0; round < SIEVE_ROUNDS; round++) {
        unsigned count = 0;
        for (int i = 0; i <= SIEVE_N; i++) composite[i] = 0;
        for (int i = 2; i <= SIEVE_N; i++) {
            if (composite[i]) continue;
            count++;
            for (int j = i + i; j <= SIEVE_N; j += i) composite[j] = 1;
        }
        total += count;
    }
    return total;
}
PEER_MAIN
