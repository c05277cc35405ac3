/* Wide strings, and multibyte conversions of the "C" locale: one byte per character,
 * ASCII only (bytes above 127 are EILSEQ, as in glibc's "C" locale). */
#include <errno.h>
#include <stdlib.h>
#include <wchar.h>
#include <uchar.h>
#include <wctype.h>
#include <ctype.h>

size_t wcslen(const wchar_t *s) {
    const wchar_t *p = s;
    while (*p)
        p++;
    return (size_t)(p - s);
}

wchar_t *wcscpy(wchar_t *dst, const wchar_t *src) {
    wchar_t *d = dst;
    while ((*d++ = *src++))
        ;
    return dst;
}

wchar_t *wcsncpy(wchar_t *dst, const wchar_t *src, size_t n) {
    size_t i = 0;
    for (; i < n && src[i]; i++)
        dst[i] = src[i];
    for (; i < n; i++)
        dst[i] = 0;
    return dst;
}

wchar_t *wcscat(wchar_t *dst, const wchar_t *src) {
    wcscpy(dst + wcslen(dst), src);
    return dst;
}

wchar_t *wcsncat(wchar_t *dst, const wchar_t *src, size_t n) {
    wchar_t *d = dst + wcslen(dst);
    while (n-- && *src)
        *d++ = *src++;
    *d = 0;
    return dst;
}

int wcscmp(const wchar_t *a, const wchar_t *b) {
    while (*a && *a == *b) {
        a++;
        b++;
    }
    return *a < *b ? -1 : *a > *b;
}

int wcsncmp(const wchar_t *a, const wchar_t *b, size_t n) {
    for (; n; n--, a++, b++) {
        if (*a != *b)
            return *a < *b ? -1 : 1;
        if (!*a)
            break;
    }
    return 0;
}

wchar_t *wcschr(const wchar_t *s, wchar_t c) {
    for (;; s++) {
        if (*s == c)
            return (wchar_t *)s;
        if (!*s)
            return NULL;
    }
}

wchar_t *wcsrchr(const wchar_t *s, wchar_t c) {
    const wchar_t *found = NULL;
    for (;; s++) {
        if (*s == c)
            found = s;
        if (!*s)
            return (wchar_t *)found;
    }
}

wchar_t *wcsstr(const wchar_t *haystack, const wchar_t *needle) {
    size_t n = wcslen(needle);
    for (; *haystack; haystack++)
        if (wcsncmp(haystack, needle, n) == 0)
            return (wchar_t *)haystack;
    return n ? NULL : (wchar_t *)haystack;
}

size_t wcsspn(const wchar_t *s, const wchar_t *accept) {
    size_t n = 0;
    while (s[n] && wcschr(accept, s[n]))
        n++;
    return n;
}

size_t wcscspn(const wchar_t *s, const wchar_t *reject) {
    size_t n = 0;
    while (s[n] && !wcschr(reject, s[n]))
        n++;
    return n;
}

wchar_t *wmemcpy(wchar_t *dst, const wchar_t *src, size_t n) {
    for (size_t i = 0; i < n; i++)
        dst[i] = src[i];
    return dst;
}

wchar_t *wmemmove(wchar_t *dst, const wchar_t *src, size_t n) {
    if (dst < src)
        return wmemcpy(dst, src, n);
    while (n--)
        dst[n] = src[n];
    return dst;
}

wchar_t *wmemset(wchar_t *dst, wchar_t c, size_t n) {
    for (size_t i = 0; i < n; i++)
        dst[i] = c;
    return dst;
}

int wmemcmp(const wchar_t *a, const wchar_t *b, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (a[i] != b[i])
            return a[i] < b[i] ? -1 : 1;
    return 0;
}

wchar_t *wmemchr(const wchar_t *s, wchar_t c, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (s[i] == c)
            return (wchar_t *)s + i;
    return NULL;
}

wchar_t *wcspbrk(const wchar_t *s, const wchar_t *accept) {
    s += wcscspn(s, accept);
    return *s ? (wchar_t *)s : NULL;
}

wchar_t *wcstok(wchar_t *s, const wchar_t *delim, wchar_t **state) {
    if (!s)
        s = *state;
    s += wcsspn(s, delim);
    if (!*s) {
        *state = s;
        return NULL;
    }
    wchar_t *end = s + wcscspn(s, delim);
    *state = *end ? end + 1 : end;
    *end = 0;
    return s;
}

size_t wcsnlen(const wchar_t *s, size_t max) {
    size_t n = 0;
    while (n < max && s[n])
        n++;
    return n;
}

wchar_t *wcsdup(const wchar_t *s) {
    size_t n = wcslen(s) + 1;
    wchar_t *copy = malloc(n * sizeof *copy);
    return copy ? wmemcpy(copy, s, n) : NULL;
}

/* The "C" locale collates by code point. */
int wcscoll(const wchar_t *a, const wchar_t *b) { return wcscmp(a, b); }

size_t wcsxfrm(wchar_t *dst, const wchar_t *src, size_t n) {
    size_t len = wcslen(src);
    if (len < n)
        wmemcpy(dst, src, len + 1);
    return len;
}

/* The number conversions: the longest ASCII prefix of `s` (numbers are ASCII) as bytes,
 * converted by the byte function; `end` mapped back. */
#define NARROW_NUMBER(type, name, call)                                       \
    type name {                                                               \
        char buf[128];                                                        \
        size_t n = 0;                                                         \
        while (n + 1 < sizeof buf && s[n] > 0 && s[n] < 128) {                \
            buf[n] = (char)s[n];                                              \
            n++;                                                              \
        }                                                                     \
        buf[n] = 0;                                                           \
        char *stop;                                                           \
        type v = call;                                                        \
        if (end)                                                              \
            *end = (wchar_t *)s + (stop - buf);                               \
        return v;                                                             \
    }

NARROW_NUMBER(long, wcstol(const wchar_t *s, wchar_t **end, int base), strtol(buf, &stop, base))
NARROW_NUMBER(unsigned long, wcstoul(const wchar_t *s, wchar_t **end, int base),
              strtoul(buf, &stop, base))
NARROW_NUMBER(long long, wcstoll(const wchar_t *s, wchar_t **end, int base),
              strtoll(buf, &stop, base))
NARROW_NUMBER(unsigned long long, wcstoull(const wchar_t *s, wchar_t **end, int base),
              strtoull(buf, &stop, base))
NARROW_NUMBER(double, wcstod(const wchar_t *s, wchar_t **end), strtod(buf, &stop))
NARROW_NUMBER(float, wcstof(const wchar_t *s, wchar_t **end), strtof(buf, &stop))
NARROW_NUMBER(long double, wcstold(const wchar_t *s, wchar_t **end), strtold(buf, &stop))

wint_t btowc(int c) { return c >= 0 && c < 128 ? (wint_t)c : WEOF; }
int wctob(wint_t c) { return c >= 0 && c < 128 ? c : -1; }
int mbsinit(const mbstate_t *ps) { (void)ps; return 1; }

size_t mbrtowc(wchar_t *wc, const char *s, size_t n, mbstate_t *ps) {
    (void)ps;
    if (!s)
        return 0;
    if (n == 0)
        return (size_t)-2;
    unsigned char c = (unsigned char)*s;
    if (c >= 128) {
        errno = EILSEQ;
        return (size_t)-1;
    }
    if (wc)
        *wc = c;
    return c != 0;
}

size_t mbrlen(const char *s, size_t n, mbstate_t *ps) { return mbrtowc(NULL, s, n, ps); }

size_t wcrtomb(char *s, wchar_t wc, mbstate_t *ps) {
    (void)ps;
    if (!s)
        return 1;
    if (wc < 0 || wc >= 128) {
        errno = EILSEQ;
        return (size_t)-1;
    }
    *s = (char)wc;
    return 1;
}

size_t mbsrtowcs(wchar_t *dst, const char **src, size_t n, mbstate_t *ps) {
    (void)ps;
    const char *s = *src;
    size_t count = 0;
    for (;; s++) {
        unsigned char c = (unsigned char)*s;
        if (c >= 128) {
            errno = EILSEQ;
            *src = s;
            return (size_t)-1;
        }
        if (dst && count == n) {
            *src = s;
            return count;
        }
        if (dst)
            dst[count] = c;
        if (!c) {
            if (dst)
                *src = NULL;
            return count;
        }
        count++;
    }
}

size_t wcsrtombs(char *dst, const wchar_t **src, size_t n, mbstate_t *ps) {
    (void)ps;
    const wchar_t *s = *src;
    size_t count = 0;
    for (;; s++) {
        wchar_t c = *s;
        if (c < 0 || c >= 128) {
            errno = EILSEQ;
            *src = s;
            return (size_t)-1;
        }
        if (dst && count == n) {
            *src = s;
            return count;
        }
        if (dst)
            dst[count] = (char)c;
        if (!c) {
            if (dst)
                *src = NULL;
            return count;
        }
        count++;
    }
}

int mblen(const char *s, size_t n) { return (int)mbrtowc(NULL, s, n, NULL); }

int mbtowc(wchar_t *wc, const char *s, size_t n) { return (int)mbrtowc(wc, s, n, NULL); }

int wctomb(char *s, wchar_t wc) { return s ? (int)wcrtomb(s, wc, NULL) : 0; }

size_t mbstowcs(wchar_t *dst, const char *src, size_t n) {
    return mbsrtowcs(dst, &src, n, NULL);
}

size_t wcstombs(char *dst, const wchar_t *src, size_t n) {
    return wcsrtombs(dst, &src, n, NULL);
}

static int ascii(wint_t c) { return c >= 0 && c < 128; }

int iswalnum(wint_t c) { return ascii(c) && isalnum(c); }
int iswalpha(wint_t c) { return ascii(c) && isalpha(c); }
int iswblank(wint_t c) { return ascii(c) && isblank(c); }
int iswcntrl(wint_t c) { return ascii(c) && iscntrl(c); }
int iswdigit(wint_t c) { return ascii(c) && isdigit(c); }
int iswgraph(wint_t c) { return ascii(c) && isgraph(c); }
int iswlower(wint_t c) { return ascii(c) && islower(c); }
int iswprint(wint_t c) { return ascii(c) && isprint(c); }
int iswpunct(wint_t c) { return ascii(c) && ispunct(c); }
int iswspace(wint_t c) { return ascii(c) && isspace(c); }
int iswupper(wint_t c) { return ascii(c) && isupper(c); }
int iswxdigit(wint_t c) { return ascii(c) && isxdigit(c); }
wint_t towlower(wint_t c) { return ascii(c) ? tolower(c) : c; }
wint_t towupper(wint_t c) { return ascii(c) ? toupper(c) : c; }

/* uchar.h: in the "C" locale every character is one byte, one char16_t, one char32_t. */

size_t mbrtoc32(char32_t *c32, const char *s, size_t n, mbstate_t *ps) {
    wchar_t wc;
    size_t r = mbrtowc(&wc, s, n, ps);
    if (c32 && r <= n && s)
        *c32 = (char32_t)wc;
    return r;
}

size_t mbrtoc16(char16_t *c16, const char *s, size_t n, mbstate_t *ps) {
    wchar_t wc;
    size_t r = mbrtowc(&wc, s, n, ps);
    if (c16 && r <= n && s)
        *c16 = (char16_t)wc;
    return r;
}

size_t c32rtomb(char *s, char32_t c32, mbstate_t *ps) {
    return wcrtomb(s, c32 > 0x7FFFFFFF ? -1 : (wchar_t)c32, ps);
}

size_t c16rtomb(char *s, char16_t c16, mbstate_t *ps) { return wcrtomb(s, c16, ps); }
