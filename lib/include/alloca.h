/* alloca.h: stack allocation freed when the calling function returns. */
#ifndef _HSX_ALLOCA_H
#define _HSX_ALLOCA_H
#include <stddef.h>
#define alloca(size) __builtin_alloca(size)
#endif
