/* limits.h, float.h, stdint.h, inttypes.h, stddef.h, stdbool.h, iso646.h, stdalign.h,
 * stdnoreturn.h: the values and types a portable program relies on. */
#include <stdio.h>
#include <limits.h>
#include <float.h>
#include <stdint.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdbool.h>
#include <iso646.h>
#include <stdalign.h>
#include <stdnoreturn.h>
#include <stdlib.h>

struct s { char c; double d; int i; };
static noreturn void stop(int code) { exit(code); }

int main(void) {
    printf("%d %d %d %d %u\n", CHAR_BIT, SCHAR_MIN, SCHAR_MAX, UCHAR_MAX, USHRT_MAX);
    printf("%d %d %d %u\n", SHRT_MIN, INT_MIN, INT_MAX, UINT_MAX);
    printf("%lld %lld %llu\n", LLONG_MIN, LLONG_MAX, ULLONG_MAX);
    printf("%d %d %d %d %d\n", FLT_RADIX, FLT_MANT_DIG, DBL_MANT_DIG, FLT_DIG, DBL_DIG);
    printf("%d %d %d %d\n", FLT_MIN_EXP, FLT_MAX_EXP, DBL_MIN_EXP, DBL_MAX_EXP);
    printf("%d %d %d %d\n", FLT_MIN_10_EXP, FLT_MAX_10_EXP, DBL_MIN_10_EXP, DBL_MAX_10_EXP);
    printf("%a %a %a\n", FLT_MAX, FLT_MIN, FLT_EPSILON);
    printf("%a %a %a %a\n", DBL_MAX, DBL_MIN, DBL_EPSILON, DBL_TRUE_MIN);
    printf("%d %d\n", FLT_EVAL_METHOD, FLT_ROUNDS);
    int8_t i8 = INT8_MIN;
    uint16_t u16 = UINT16_MAX;
    int32_t i32 = INT32_MIN;
    uint64_t u64 = UINT64_MAX;
    int64_t i64 = INT64_MIN;
    printf("%" PRId8 " %" PRIu16 " %" PRId32 " %" PRIu64 " %" PRId64 "\n", i8, u16, i32, u64,
           i64);
    printf("%" PRIx32 " %" PRIX64 " %" PRIo8 " %" PRIiMAX " %" PRIuFAST16 " %" PRIdLEAST64 "\n",
           (uint32_t)0xABCDu, (uint64_t)0xFEDCBA9876ULL, (uint8_t)8, (intmax_t)-9,
           (uint_fast16_t)65535, (int_least64_t)-1);
    printf("%d %d %d %d\n", (int)sizeof(int8_t), (int)sizeof(int16_t), (int)sizeof(int32_t),
           (int)sizeof(int64_t));
    printf("%d %d %d\n", INT_LEAST8_MAX, UINT_LEAST16_MAX, INT_FAST8_MIN);
    int64_t parsed;
    sscanf("-123456789012", "%" SCNd64, &parsed);
    printf("%" PRId64 " %lld\n", parsed, (long long)INT64_C(5000000000));
    printf("%d %d\n", (int)offsetof(struct s, d), (int)offsetof(struct s, i));
    bool t = true, f = false;
    bool from_int = 5;
    printf("%d %d %d %d\n", t, f, from_int, (int)sizeof(bool));
    printf("%d %d %d\n", 1 and 0, 1 or 0, not 0);
    alignas(16) char aligned[8];
    printf("%d %d\n", (int)alignof(double), (int)(((size_t)aligned & 15) == 0));
    printf("%d\n", __bool_true_false_are_defined);
    stop(0);
}
