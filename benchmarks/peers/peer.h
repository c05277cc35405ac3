/* Sizes of the peer workloads (peer_bench.py reads them for the Python versions too:
 * issue 26's, each about a second on HSX), and a main() that prints run()'s checksum:
 * in the WebAssembly build run() is exported instead, and the host build (PEER_TIMED)
 * prints the checksum and the seconds run() took. */
#ifndef PEER_H
#define PEER_H

#ifndef FIB_N
#define FIB_N 35
#endif
#ifndef SIEVE_N
#define SIEVE_N 20000
#endif
#ifndef SIEVE_ROUNDS
#define SIEVE_ROUNDS 1000
#endif
#ifndef CORE_ITERATIONS
#define CORE_ITERATIONS 30000
#endif
#ifndef CORE_LIST
#define CORE_LIST 64
#endif
#ifndef MIX_N
#define MIX_N 2000000
#endif

unsigned run(void);

#if defined(PEER_WASM)
#define PEER_MAIN
#elif defined(PEER_TIMED)
#include <stdio.h>
#include <time.h>
#define PEER_MAIN int main(void) {                                                 \
    struct timespec start, end;                                                       \
    clock_gettime(CLOCK_MONOTONIC, &start);                                           \
    unsigned result = run();                                                          \
    clock_gettime(CLOCK_MONOTONIC, &end);                                             \
    printf("%u %.9f\n", result,                                                       \
           (double)(end.tv_sec - start.tv_sec) + 1e-9 * (end.tv_nsec - start.tv_nsec)); \
    return 0; }
#else
#include <stdio.h>
#define PEER_MAIN int main(void) { printf("%u\n", run()); return 0; }
#endif

#endif
