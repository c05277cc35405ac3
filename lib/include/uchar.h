/* uchar.h: char16_t and char32_t, and their conversions from and to the "C" locale's
 * multibyte characters (ASCII, like glibc's "C" locale: other bytes are EILSEQ). */
#ifndef _HSX_UCHAR_H
#define _HSX_UCHAR_H
#include <stddef.h>
#include <wchar.h>

typedef __CHAR16_TYPE__ char16_t;
typedef __CHAR32_TYPE__ char32_t;

size_t mbrtoc16(char16_t *c16, const char *s, size_t n, mbstate_t *ps);
size_t c16rtomb(char *s, char16_t c16, mbstate_t *ps);
size_t mbrtoc32(char32_t *c32, const char *s, size_t n, mbstate_t *ps);
size_t c32rtomb(char *s, char32_t c32, mbstate_t *ps);
#endif
