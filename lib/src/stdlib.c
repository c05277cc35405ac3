/* stdlib.h: exit, integer helpers, number parsing, sorting, rand. */
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <errno.h>
#include <inttypes.h>
#include <hsx_sys.h>

/* Set by stdio when it is used, so programs without stdio do not link it. */
void (*__hsx_stdio_flush_hook)(void);

#define MAX_ATEXIT 16
static void (*exit_handlers[MAX_ATEXIT])(void);
static int exit_count;

int atexit(void (*fn)(void)) {
    if (exit_count == MAX_ATEXIT)
        return -1;
    exit_handlers[exit_count++] = fn;
    return 0;
}

static void (*quick_handlers[MAX_ATEXIT])(void);
static int quick_count;

int at_quick_exit(void (*fn)(void)) {
    if (quick_count == MAX_ATEXIT)
        return -1;
    quick_handlers[quick_count++] = fn;
    return 0;
}

void quick_exit(int status) {
    while (quick_count > 0)
        quick_handlers[--quick_count]();
    _Exit(status);
}

/* The environment the executive passed ("NAME=VALUE" strings, crt0 keeps the list in
 * __hsx_environ; docs/abi.md, "Program start").  No command processor. */
extern char **__hsx_environ;

char *getenv(const char *name) {
    size_t length = 0;
    while (name[length] && name[length] != '=')
        length++;
    if (!__hsx_environ || name[length] == '=' || length == 0)
        return NULL;
    for (char **entry = __hsx_environ; *entry; entry++)
        if (strncmp(*entry, name, length) == 0 && (*entry)[length] == '=')
            return *entry + length + 1;
    return NULL;
}

int system(const char *command) { return command ? -1 : 0; }

void exit(int status) {
    while (exit_count > 0)
        exit_handlers[--exit_count]();
    if (__hsx_stdio_flush_hook)
        __hsx_stdio_flush_hook();
    hsx_exit(status);
}

void _Exit(int status) {
    hsx_exit(status);
}

void abort(void) {
    if (__hsx_stdio_flush_hook)
        __hsx_stdio_flush_hook();
    __builtin_trap();
}

int abs(int x) { return x < 0 ? -x : x; }
long labs(long x) { return x < 0 ? -x : x; }
long long llabs(long long x) { return x < 0 ? -x : x; }

div_t div(int a, int b) { div_t r = { a / b, a % b }; return r; }
ldiv_t ldiv(long a, long b) { ldiv_t r = { a / b, a % b }; return r; }
lldiv_t lldiv(long long a, long long b) { lldiv_t r = { a / b, a % b }; return r; }

static int is_space(int c) { return c == ' ' || (c >= '\t' && c <= '\r'); }

static int digit_value(int c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'z') return c - 'a' + 10;
    if (c >= 'A' && c <= 'Z') return c - 'A' + 10;
    return 99;
}

/* Parse an unsigned magnitude; `*overflow` set when it exceeds `limit`. */
static unsigned long long parse(const char *s, char **end, int base, int *negative,
                                unsigned long long limit, int *overflow) {
    const char *p = s;
    while (is_space(*p))
        p++;
    *negative = 0;
    if (*p == '+' || *p == '-')
        *negative = *p++ == '-';
    if ((base == 0 || base == 16) && p[0] == '0' && (p[1] == 'x' || p[1] == 'X') &&
        digit_value(p[2]) < 16) {
        p += 2;
        base = 16;
    } else if (base == 0) {
        base = *p == '0' ? 8 : 10;
    }
    unsigned long long value = 0;
    const char *start = p;
    *overflow = 0;
    for (;; p++) {
        int d = digit_value(*p);
        if (d >= base)
            break;
        if (value > (limit - d) / base)
            *overflow = 1;
        else
            value = value * base + d;
    }
    if (end)
        *end = (char *)(p == start ? s : p);
    return value;
}

long strtol(const char *s, char **end, int base) {
    int neg, over;
    unsigned long long v = parse(s, end, base, &neg, (unsigned long long)LONG_MAX + 1, &over);
    if (over || (!neg && v > LONG_MAX)) {
        errno = ERANGE;
        return neg ? LONG_MIN : LONG_MAX;
    }
    return neg ? (long)(0 - (unsigned long)v) : (long)v;
}

unsigned long strtoul(const char *s, char **end, int base) {
    int neg, over;
    unsigned long long v = parse(s, end, base, &neg, ULONG_MAX, &over);
    if (over) {
        errno = ERANGE;
        return ULONG_MAX;
    }
    return neg ? 0 - (unsigned long)v : (unsigned long)v;
}

long long strtoll(const char *s, char **end, int base) {
    int neg, over;
    unsigned long long v = parse(s, end, base, &neg, (unsigned long long)LLONG_MAX + 1, &over);
    if (over || (!neg && v > LLONG_MAX)) {
        errno = ERANGE;
        return neg ? LLONG_MIN : LLONG_MAX;
    }
    return neg ? (long long)(0 - v) : (long long)v;
}

unsigned long long strtoull(const char *s, char **end, int base) {
    int neg, over;
    unsigned long long v = parse(s, end, base, &neg, ULLONG_MAX, &over);
    if (over) {
        errno = ERANGE;
        return ULLONG_MAX;
    }
    return neg ? 0 - v : v;
}

intmax_t strtoimax(const char *s, char **end, int base) { return strtoll(s, end, base); }
uintmax_t strtoumax(const char *s, char **end, int base) { return strtoull(s, end, base); }
intmax_t imaxabs(intmax_t x) { return x < 0 ? -x : x; }
imaxdiv_t imaxdiv(intmax_t a, intmax_t b) { imaxdiv_t r = { a / b, a % b }; return r; }

int atoi(const char *s) { return (int)strtol(s, NULL, 10); }
long atol(const char *s) { return strtol(s, NULL, 10); }
long long atoll(const char *s) { return strtoll(s, NULL, 10); }

static void swap_bytes(char *a, char *b, size_t n) {
    while (n--) {
        char t = *a;
        *a++ = *b;
        *b++ = t;
    }
}

typedef int (*compare_fn)(const void *, const void *);

/* Stable insertion sort: short runs, and every run when no buffer could be had. */
static void insertion_sort(char *a, size_t count, size_t size, compare_fn cmp) {
    for (size_t i = 1; i < count; i++)
        for (size_t j = i; j > 0 && cmp(a + (j - 1) * size, a + j * size) > 0; j--)
            swap_bytes(a + (j - 1) * size, a + j * size, size);
}

static void merge_sort(char *a, char *tmp, size_t count, size_t size, compare_fn cmp) {
    if (count <= 8) {
        insertion_sort(a, count, size, cmp);
        return;
    }
    size_t n1 = count / 2;
    char *mid = a + n1 * size, *end = a + count * size;
    merge_sort(a, tmp, n1, size, cmp);
    merge_sort(mid, tmp, count - n1, size, cmp);
    char *p = a, *q = mid, *t = tmp;
    while (p < mid && q < end) {                  /* ties from the first run: stable */
        char *from = cmp(p, q) <= 0 ? p : q;
        memcpy(t, from, size);
        t += size;
        if (from == p)
            p += size;
        else
            q += size;
    }
    memcpy(t, p, (size_t)(mid - p));              /* the rest of the second run is in place */
    t += mid - p;
    memcpy(a, tmp, (size_t)(t - tmp));
}

/* A stable merge sort, as glibc's qsort is (so equal elements keep their order and a
 * program prints what it prints on glibc), through a buffer on the stack for small
 * arrays, else from malloc; without one, insertion sort. */
void qsort(void *base, size_t count, size_t size, compare_fn cmp) {
    char small[256];
    if (count < 2 || size == 0)
        return;
    size_t bytes = count * size;
    if (bytes / size != count) {
        insertion_sort(base, count, size, cmp);
        return;
    }
    char *tmp = bytes <= sizeof small ? small : malloc(bytes);
    if (!tmp) {
        insertion_sort(base, count, size, cmp);
        return;
    }
    merge_sort(base, tmp, count, size, cmp);
    if (tmp != small)
        free(tmp);
}

void *bsearch(const void *key, const void *base, size_t count, size_t size,
              int (*cmp)(const void *, const void *)) {
    const char *a = base;
    size_t lo = 0, hi = count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = cmp(key, a + mid * size);
        if (c == 0)
            return (void *)(a + mid * size);
        if (c < 0)
            hi = mid;
        else
            lo = mid + 1;
    }
    return NULL;
}

/* glibc's rand (random's TYPE_3 generator), so a program prints the numbers it prints
 * on glibc: r[i] = r[i-31] + r[i-3] (mod 2^32), seeded by a Lehmer sequence
 * r[i] = 16807 r[i-1] mod (2^31 - 1), the first 310 outputs dropped, each result r >> 1.
 * The 31 newest values are kept in a ring, r[i] at i mod 31. */
static uint32_t rand_ring[31];
static unsigned rand_next;                     /* i of the next r[i]; 0: not seeded yet */

void srand(unsigned seed) {
    int32_t word = seed ? (int32_t)seed : 1;
    rand_ring[0] = (uint32_t)word;
    for (int i = 1; i < 31; i++) {             /* 16807 word mod (2^31 - 1), by Schrage */
        int32_t hi = word / 127773, lo = word % 127773;
        word = 16807 * lo - 2836 * hi;
        if (word < 0)
            word += 2147483647;
        rand_ring[i] = (uint32_t)word;
    }
    rand_next = 34;                            /* r[31..33] are r[0..2]: the ring has them */
    for (int k = 0; k < 310; k++)
        rand();
}

int rand(void) {
    if (!rand_next)
        srand(1);
    uint32_t *r = &rand_ring[rand_next % 31];
    *r += rand_ring[(rand_next - 3) % 31];
    rand_next = rand_next % 31 + 32;           /* i + 1 mod 31, and never below 3 */
    return (int)(*r >> 1);
}
