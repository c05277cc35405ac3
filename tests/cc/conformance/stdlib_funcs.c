/* stdlib.h: number parsing (bases, signs, end pointers, saturation), abs/div,
 * qsort/bsearch on structs, calloc/realloc/free patterns, atexit order. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <limits.h>

struct rec { char name[8]; int score; };
static int by_score(const void *a, const void *b) {
    const struct rec *x = a, *y = b;
    return x->score != y->score ? (x->score > y->score) - (x->score < y->score)
                                : strcmp(x->name, y->name);
}
static void first(void) { printf("atexit first registered\n"); }
static void second(void) { printf("atexit second registered\n"); }

int main(void) {
    char *end;
    printf("%ld ", strtol("  -1234xyz", &end, 10));
    printf("[%s] ", end);
    printf("%ld %ld %ld %ld\n", strtol("ff", NULL, 16), strtol("0x1A", NULL, 0),
           strtol("0777", NULL, 0), strtol("z", NULL, 36));
    printf("%lu %llu %lld\n", strtoul("4294967295", NULL, 10),
           strtoull("18446744073709551615", NULL, 10), strtoll("-9223372036854775808", NULL, 10));
    errno = 0;
    long big = strtol("99999999999999999999", &end, 10);
    printf("%d %d %d\n", big == LONG_MAX, errno == ERANGE, *end == 0);
    errno = 0;
    long long small = strtoll("-99999999999999999999", NULL, 10);
    printf("%d %d\n", small == LLONG_MIN, errno == ERANGE);
    strtol("abc", &end, 10);
    printf("[%s] %d %d %ld\n", end, atoi("  42abc"), atoi("-0"), atol("+17"));
    printf("%lld %d %ld %lld\n", atoll("123456789012"), abs(-5), labs(-6L), llabs(-7LL));
    div_t q = div(-17, 5);
    ldiv_t lq = ldiv(17L, -5L);
    lldiv_t llq = lldiv(-170000000000LL, 3LL);
    printf("%d %d %ld %ld %lld %lld\n", q.quot, q.rem, lq.quot, lq.rem, llq.quot, llq.rem);
    struct rec recs[] = { { "eve", 3 }, { "bob", 1 }, { "amy", 3 }, { "dan", 2 }, { "cat", 1 } };
    qsort(recs, 5, sizeof recs[0], by_score);
    for (int i = 0; i < 5; i++)
        printf("%s:%d ", recs[i].name, recs[i].score);
    struct rec key = { "dan", 2 };
    struct rec *hit = bsearch(&key, recs, 5, sizeof recs[0], by_score);
    printf("\n%d\n", (int)(hit - recs));
    int *v = calloc(10, sizeof *v);
    int zero = 1;
    for (int i = 0; i < 10; i++)
        zero &= v[i] == 0;
    v = realloc(v, 1000 * sizeof *v);
    for (int i = 0; i < 1000; i++)
        v[i] = i;
    long t = 0;
    for (int i = 0; i < 1000; i++)
        t += v[i];
    printf("%d %ld\n", zero, t);
    free(v);
    void *blocks[50];
    for (int round = 0; round < 3; round++) {
        for (int i = 0; i < 50; i++)
            blocks[i] = malloc((size_t)(i * 13 % 200 + 1));
        for (int i = 0; i < 50; i += 2)
            free(blocks[i]);
        for (int i = 1; i < 50; i += 2)
            free(blocks[i]);
    }
    atexit(first);
    atexit(second);
    printf("exiting\n");
    exit(3);
}
