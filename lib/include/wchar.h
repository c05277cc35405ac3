/* wchar.h: wide strings, number conversions, wide stdio and the "C" locale's (ASCII)
 * multibyte conversions: a wide character is one byte in a stream. */
#ifndef _HSX_WCHAR_H
#define _HSX_WCHAR_H
#include <stddef.h>
#include <stdarg.h>

#ifndef _HSX_WINT_T
#define _HSX_WINT_T
typedef __WINT_TYPE__ wint_t;
#endif
typedef struct { unsigned __state; } mbstate_t;
#define WEOF ((wint_t)-1)
#define WCHAR_MIN (-2147483647 - 1)
#define WCHAR_MAX 2147483647

size_t wcslen(const wchar_t *s);
wchar_t *wcscpy(wchar_t *dst, const wchar_t *src);
wchar_t *wcsncpy(wchar_t *dst, const wchar_t *src, size_t n);
wchar_t *wcscat(wchar_t *dst, const wchar_t *src);
wchar_t *wcsncat(wchar_t *dst, const wchar_t *src, size_t n);
int wcscmp(const wchar_t *a, const wchar_t *b);
int wcsncmp(const wchar_t *a, const wchar_t *b, size_t n);
wchar_t *wcschr(const wchar_t *s, wchar_t c);
wchar_t *wcsrchr(const wchar_t *s, wchar_t c);
wchar_t *wcsstr(const wchar_t *haystack, const wchar_t *needle);
size_t wcsspn(const wchar_t *s, const wchar_t *accept);
size_t wcscspn(const wchar_t *s, const wchar_t *reject);
wchar_t *wmemcpy(wchar_t *dst, const wchar_t *src, size_t n);
wchar_t *wmemmove(wchar_t *dst, const wchar_t *src, size_t n);
wchar_t *wmemset(wchar_t *dst, wchar_t c, size_t n);
int wmemcmp(const wchar_t *a, const wchar_t *b, size_t n);
wchar_t *wmemchr(const wchar_t *s, wchar_t c, size_t n);
wchar_t *wcspbrk(const wchar_t *s, const wchar_t *accept);
wchar_t *wcstok(wchar_t *s, const wchar_t *delim, wchar_t **state);
size_t wcsnlen(const wchar_t *s, size_t max);
wchar_t *wcsdup(const wchar_t *s);
int wcscoll(const wchar_t *a, const wchar_t *b);
size_t wcsxfrm(wchar_t *dst, const wchar_t *src, size_t n);
long wcstol(const wchar_t *s, wchar_t **end, int base);
unsigned long wcstoul(const wchar_t *s, wchar_t **end, int base);
long long wcstoll(const wchar_t *s, wchar_t **end, int base);
unsigned long long wcstoull(const wchar_t *s, wchar_t **end, int base);
double wcstod(const wchar_t *s, wchar_t **end);
float wcstof(const wchar_t *s, wchar_t **end);
long double wcstold(const wchar_t *s, wchar_t **end);

wint_t btowc(int c);
int wctob(wint_t c);
int mbsinit(const mbstate_t *ps);
size_t mbrlen(const char *s, size_t n, mbstate_t *ps);
size_t mbrtowc(wchar_t *wc, const char *s, size_t n, mbstate_t *ps);
size_t wcrtomb(char *s, wchar_t wc, mbstate_t *ps);
size_t mbsrtowcs(wchar_t *dst, const char **src, size_t n, mbstate_t *ps);
size_t wcsrtombs(char *dst, const wchar_t **src, size_t n, mbstate_t *ps);

struct __hsx_file;
wint_t fputwc(wchar_t c, struct __hsx_file *f);
wint_t putwc(wchar_t c, struct __hsx_file *f);
wint_t putwchar(wchar_t c);
int fputws(const wchar_t *s, struct __hsx_file *f);
wint_t fgetwc(struct __hsx_file *f);
wint_t getwc(struct __hsx_file *f);
wint_t getwchar(void);
wint_t ungetwc(wint_t c, struct __hsx_file *f);
wchar_t *fgetws(wchar_t *buf, int size, struct __hsx_file *f);
int fwide(struct __hsx_file *f, int mode);
int wprintf(const wchar_t *fmt, ...);
int fwprintf(struct __hsx_file *f, const wchar_t *fmt, ...);
int swprintf(wchar_t *buf, size_t size, const wchar_t *fmt, ...);
int vwprintf(const wchar_t *fmt, va_list ap);
int vfwprintf(struct __hsx_file *f, const wchar_t *fmt, va_list ap);
int vswprintf(wchar_t *buf, size_t size, const wchar_t *fmt, va_list ap);
int wscanf(const wchar_t *fmt, ...);
int fwscanf(struct __hsx_file *f, const wchar_t *fmt, ...);
int swscanf(const wchar_t *s, const wchar_t *fmt, ...);
int vwscanf(const wchar_t *fmt, va_list ap);
int vfwscanf(struct __hsx_file *f, const wchar_t *fmt, va_list ap);
int vswscanf(const wchar_t *s, const wchar_t *fmt, va_list ap);
#endif
