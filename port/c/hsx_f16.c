/* IEEE 754 binary16 arithmetic for the FADD..F2I instructions.
 *
 * As in the reference (src/hsx/isa/f16.py): operands are decoded exactly, the operation
 * is done once in double precision and the result rounded to nearest even, which is
 * correctly rounded because a double holds every exact sum, difference and product of
 * two halves and enough precision for their quotient. Every NaN result is 0x7E00.
 */
#include "hsx_f16.h"

#define F16_POS_INF 0x7C00u
#define F16_NAN 0x7E00u

static uint64_t double_bits(double v)
{
    union { double d; uint64_t u; } pun;
    pun.d = v;
    return pun.u;
}

static double bits_double(uint64_t u)
{
    union { double d; uint64_t u; } pun;
    pun.u = u;
    return pun.d;
}

double hsx_f16_to_double(uint32_t bits)
{
    uint64_t sign = (uint64_t)(bits & 0x8000u) << 48;
    uint32_t exp = (bits >> 10) & 0x1Fu;
    uint64_t man = bits & 0x3FFu;
    if (exp == 0x1F)
        return bits_double(sign | 0x7FF0000000000000ull | (man << 42));
    if (exp == 0) {
        double v = (double)man * (1.0 / 16777216.0);        /* man * 2^-24, exact */
        return sign ? -v : v;
    }
    return bits_double(sign | ((uint64_t)(exp - 15 + 1023) << 52) | (man << 42));
}

/* Round the 53-bit significand `m` right by `shift` bits, to nearest even. */
static uint64_t round_shift(uint64_t m, unsigned shift)
{
    uint64_t q, rem, half;
    if (shift >= 64)
        return 0;
    q = m >> shift;
    rem = m & (((uint64_t)1 << shift) - 1);
    half = (uint64_t)1 << (shift - 1);
    if (rem > half || (rem == half && (q & 1)))
        q++;
    return q;
}

uint32_t hsx_double_to_f16(double v)
{
    uint64_t b = double_bits(v);
    uint32_t sign = (uint32_t)(b >> 48) & 0x8000u;
    int exp = (int)((b >> 52) & 0x7FF);
    uint64_t m = (b & 0xFFFFFFFFFFFFFull) | ((uint64_t)1 << 52);
    int e = exp - 1023;
    uint64_t q;
    if (v != v)
        return F16_NAN;
    if (exp == 0x7FF)
        return sign | F16_POS_INF;
    if (exp == 0 || e < -40)                    /* far below half the smallest subnormal */
        return sign;
    if (e > 15)
        return sign | F16_POS_INF;
    if (e >= -14) {                             /* normal range: keep 10 fraction bits */
        q = round_shift(m, 42);
        if (q == 2048) {                        /* rounded up to the next binade */
            q = 1024;
            e++;
        }
        if (e > 15)
            return sign | F16_POS_INF;
        return sign | ((uint32_t)(e + 15) << 10) | (uint32_t)(q & 0x3FF);
    }
    /* subnormal: units of 2^-24; rounding up to 1024 gives the smallest normal's bits */
    q = round_shift(m, (unsigned)(42 + (-14 - e)));
    return sign | (uint32_t)q;
}

uint32_t hsx_f16_add(uint32_t a, uint32_t b)
{
    return hsx_double_to_f16(hsx_f16_to_double(a) + hsx_f16_to_double(b));
}

uint32_t hsx_f16_sub(uint32_t a, uint32_t b)
{
    return hsx_double_to_f16(hsx_f16_to_double(a) - hsx_f16_to_double(b));
}

uint32_t hsx_f16_mul(uint32_t a, uint32_t b)
{
    return hsx_double_to_f16(hsx_f16_to_double(a) * hsx_f16_to_double(b));
}

uint32_t hsx_f16_div(uint32_t a, uint32_t b)
{
    double x = hsx_f16_to_double(a), y = hsx_f16_to_double(b);
    if (y == 0.0) {
        if (x != x || x == 0.0)
            return F16_NAN;
        return (((a ^ b) & 0x8000u) ? 0x8000u : 0u) | F16_POS_INF;
    }
    return hsx_double_to_f16(x / y);
}

uint32_t hsx_int_to_f16(uint32_t value)
{
    return hsx_double_to_f16((double)(int32_t)value);
}

uint32_t hsx_f16_to_int(uint32_t bits)
{
    double x = hsx_f16_to_double(bits);
    if (x != x)
        return 0;
    if ((bits & 0x7FFFu) == F16_POS_INF)
        return (bits & 0x8000u) ? 0x80000000u : 0x7FFFFFFFu;
    return (uint32_t)(int32_t)x;                /* |x| <= 65504: always in range */
}
