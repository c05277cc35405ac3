/* Sizes of the peer workloads (peer_bench.py reads them for the Python versions too),
 * and a main() that prints run()'s checksum, except in the WebAssembly build, which
 * exports run() itself. */
#ifndef PEER_H
#define PEER_H

#ifndef FIB_N
#define FIB_N 27
#endif
#ifndef SIEVE_N
#define SIEVE_N 20000
#endif
#ifndef SIEVE_ROUNDS
#define SIEVE_ROUNDS 10
#endif
#ifndef CORE_ITERATIONS
#define CORE_ITERATIONS 500
#endif
#ifndef CORE_LIST
#define CORE_LIST 64
#endif
#ifndef MIX_N
#define MIX_N 4000
#endif

unsigned run(void);

#ifdef PEER_WASM
#define PEER_MAIN
#else
#include <stdio.h>
#define PEER_MAIN int main(void) { printf("%u\n", run()); return 0; }
#endif

#endif
