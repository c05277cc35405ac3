/* Recursive Fibonacci: call-heavy code. */
#include "peer.h"

static unsigned fib(unsigned n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

unsigned run(void) { return fib(FIB_N); }
PEER_MAIN
