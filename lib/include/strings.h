/* strings.h: case-insensitive compares (ASCII). */
#ifndef _HSX_STRINGS_H
#define _HSX_STRINGS_H
#include <stddef.h>
int strcasecmp(const char *a, const char *b);
int strncasecmp(const char *a, const char *b, size_t n);
#endif
