/* Loop counters clang widens to 64 bits (an int used as a 64-bit value) or that are 64
 * bits (long long), with bounds around 2^31 and 2^32: hsx cc keeps those whose values
 * all fit a word in one register (narrow.py), the others in a pair
 * (tests/cc/test_narrow_counters.py checks which). */
#include <stdint.h>
#include <stdio.h>

#define P 1099511628211ull
#define H0 1469598103934665603ull
#define NOINLINE __attribute__((noinline))

static volatile int sink_int;
static uint64_t stored[2000];
static int a[1900];

/* mix's loop: an int counter used as a 64-bit value (xor, division, double) */
NOINLINE static uint64_t mix_like(double *acc_out)
{
    uint64_t h = H0;
    double acc = 0.0;
    for (int i = 1; i <= 3000; i++) {
        h = (h ^ (uint64_t)i) * P;
        uint64_t q = h / (uint64_t)(i | 1);
        acc += (double)(q % 65521u) / (double)i;
    }
    *acc_out = acc;
    return h;
}

/* counting down to 1 */
NOINLINE static uint64_t down(void)
{
    uint64_t h = H0;
    for (int i = 2500; i > 0; i--)
        h = (h ^ (uint64_t)i) * P + (uint64_t)i * (uint64_t)i;
    return h;
}

/* counting down to 0 inclusive: the step goes to -1 on the way out */
NOINLINE static uint64_t down_to_zero(void)
{
    uint64_t h = H0;
    for (long long i = 1500; i >= 0; i--)
        h = (h ^ (uint64_t)i) * P;
    return h;
}

/* a signed counter with signed 64-bit uses: sext, sdiv, srem, ashr, sitofp */
NOINLINE static int64_t signed_uses(double *d)
{
    int64_t s = 0;
    double acc = 0;
    for (int i = 0; i < 4000; i++) {
        int64_t w = (int64_t)i;
        s += w / -7 + w % -5 + ((w * -3) >> 2);
        acc += (double)w * 0.5;
    }
    *d = acc;
    return s;
}

/* long long counters around 2^31: narrowed (every value below 2^32), signed uses */
NOINLINE static int64_t around_2_31(void)
{
    int64_t s = 0;
    for (long long i = 2147483647LL - 1200; i < 2147483647LL + 1300; i++)
        s += (i / 3) ^ (i * 5) ^ (i >> 3);
    return s;
}

/* up to the last word value: the step reaches 2^32 - 1 exactly */
NOINLINE static uint64_t to_word_edge(void)
{
    uint64_t h = H0;
    for (unsigned long long i = 4294967295ull - 1700; i < 4294967295ull; i++)
        h = (h ^ i) * P + i / 7;
    return h;
}

/* ... and one further: the step reaches 2^32 (not narrowed) */
NOINLINE static uint64_t past_word_edge(void)
{
    uint64_t h = H0;
    for (unsigned long long i = 4294967295ull - 1700; i <= 4294967295ull; i++)
        h = (h ^ i) * P + i / 7;
    return h;
}

/* across 2^32 */
NOINLINE static uint64_t across_2_32(void)
{
    uint64_t h = H0;
    for (unsigned long long i = 4294967296ull - 900; i != 4294967296ull + 900; i++)
        h = (h ^ i) * P + (i >> 31);
    return h;
}

/* an unsigned counter that wraps to 0: the i64 form exits at 2^32 */
NOINLINE static uint64_t wrapping_unsigned(void)
{
    uint64_t h = H0;
    unsigned i = 4294967295u - 1100;
    do {
        h = (h ^ (uint64_t)i) * P;
        i++;
    } while (i != 0);
    return h;
}

/* early exits: a break and a return in the loop */
NOINLINE static int64_t early_exit(const int *a, int key)
{
    uint64_t h = H0;
    for (int i = 0; i < 1900; i++) {
        if (a[i] == key)
            return (int64_t)(h ^ (uint64_t)i);
        if (a[i] < 0)
            break;
        h = (h ^ (uint64_t)i) * P;
    }
    return (int64_t)(h >> 1);
}

/* the counter stored to memory as a 64-bit value, and used after the loop */
NOINLINE static uint64_t stored_counter(void)
{
    uint64_t h = H0;
    long long i;
    for (i = 3; i < 2003; i++) {
        stored[i - 3] = (uint64_t)i * 0x100000001ull;
        h = (h ^ (uint64_t)i) * P;
    }
    return h ^ (uint64_t)i ^ stored[1999] ^ stored[7];
}

/* a counter passed to a function as a 64-bit value, and compared as one */
NOINLINE static uint64_t take(uint64_t v) { sink_int = (int)v; return v * 3; }

NOINLINE static uint64_t passed_and_compared(void)
{
    uint64_t h = H0;
    for (long long i = 10; i < 1810; i++) {
        if (i > 1700LL || i == 77 || i < 20)
            h ^= take((uint64_t)i);
        h = (h ^ (uint64_t)i) * P;
    }
    return h;
}

/* 64-bit multiplication of two counters and a double conversion of both */
NOINLINE static double multiply(void)
{
    uint64_t h = H0;
    double d = 0;
    for (unsigned long long i = 100; i < 2600; i++) {
        uint64_t j = i * i * i;
        h ^= j * (i + 0x100000000ull);
        d += (double)i / (double)(j | 1);
    }
    return d + (double)(h >> 11);
}

int main(void)
{
    for (int k = 0; k < 1900; k++)
        a[k] = (k * 37) % 1001;
    double acc, d;
    uint64_t m = mix_like(&acc);
    printf("mix %llu %.6f\n", (unsigned long long)m, acc);
    printf("down %llu %llu\n", (unsigned long long)down(), (unsigned long long)down_to_zero());
    int64_t s = signed_uses(&d);
    printf("signed %lld %.1f\n", (long long)s, d);
    printf("2^31 %lld\n", (long long)around_2_31());
    printf("2^32 %llu %llu %llu %llu\n", (unsigned long long)to_word_edge(),
           (unsigned long long)past_word_edge(), (unsigned long long)across_2_32(),
           (unsigned long long)wrapping_unsigned());
    printf("early %lld %lld", (long long)early_exit(a, 999), (long long)early_exit(a, 5000));
    a[1500] = -1;
    printf(" %lld\n", (long long)early_exit(a, 5000));
    printf("stored %llu\n", (unsigned long long)stored_counter());
    uint64_t passed = passed_and_compared();
    printf("passed %llu %d\n", (unsigned long long)passed, sink_int);
    printf("multiply %.9e\n", multiply());
    return 0;
}
