/* 64-bit integer multiply, divide and modulo with double arithmetic and conversions. */
#include <stdint.h>
#include "peer.h"

unsigned run(void)
{
    uint64_t h = 1469598103934665603ull;
    double x = 0.5, acc = 0.0;
    for (int i = 1; i <= MIX_N; i++) {
        h = (h ^ (uint64_t)i) * 1099511628211ull;
        uint64_t q = h / (uint64_t)(i | 1);
        acc += (double)(q % 65521u) / (double)i + x * x;
        x = x * 0.999 + 0.001;
    }
    return (unsigned)(h ^ (h >> 32)) ^ (unsigned)(long long)acc;
}
PEER_MAIN
