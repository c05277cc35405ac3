/* binary32/binary64 arithmetic, compares and conversions for the HSX VM core.
 *
 * The C compiler's own float and double operations round to nearest even (hardware, or
 * the compiler runtime's soft float on a core without an FPU); what this file adds is
 * the part the reference defines (src/hsx/isa/fp.py): the default NaN, compare flags,
 * NaN across float <-> double, and integer conversions that never trap.
 *
 * binary32 arithmetic is done in binary64 and rounded once to binary32: for +, -, *
 * and / that is the correctly rounded result (53 >= 2 * 24 + 2 bits: the second
 * rounding never changes it), and a core without an FPU then needs the runtime's
 * double routines only, not a second set for float. */
#include "hsx_fp.h"

#define F32_NAN 0x7FC00000u
#define F64_NAN 0x7FF8000000000000ull
#define CMP_LESS 0x4u
#define CMP_EQUAL 0x3u
#define CMP_GREATER 0x2u
#define CMP_UNORDERED 0xAu

static float f32(uint32_t u) { union { float f; uint32_t u; } p; p.u = u; return p.f; }
static double f64(uint64_t u) { union { double d; uint64_t u; } p; p.u = u; return p.d; }

static uint32_t bits32(float f)
{
    union { float f; uint32_t u; } p;
    p.f = f;
    if ((p.u & 0x7FFFFFFFu) > 0x7F800000u)
        return F32_NAN;
    return p.u;
}

static uint64_t bits64(double d)
{
    union { double d; uint64_t u; } p;
    p.d = d;
    if ((p.u & 0x7FFFFFFFFFFFFFFFull) > 0x7FF0000000000000ull)
        return F64_NAN;
    return p.u;
}

/* The double result rounded to float (volatile: the compiler would otherwise turn the
 * double operation back into a float one, and call the runtime's float routines). */
static float single(double d)
{
    volatile double rounded = d;
    return (float)rounded;
}

uint32_t hsx_fadds(uint32_t a, uint32_t b) { return bits32(single((double)f32(a) + f32(b))); }
uint32_t hsx_fsubs(uint32_t a, uint32_t b) { return bits32(single((double)f32(a) - f32(b))); }
uint32_t hsx_fmuls(uint32_t a, uint32_t b) { return bits32(single((double)f32(a) * f32(b))); }
uint32_t hsx_fdivs(uint32_t a, uint32_t b) { return bits32(single((double)f32(a) / f32(b))); }
uint64_t hsx_dadd(uint64_t a, uint64_t b) { return bits64(f64(a) + f64(b)); }
uint64_t hsx_dsub(uint64_t a, uint64_t b) { return bits64(f64(a) - f64(b)); }
uint64_t hsx_dmul(uint64_t a, uint64_t b) { return bits64(f64(a) * f64(b)); }
uint64_t hsx_ddiv(uint64_t a, uint64_t b) { return bits64(f64(a) / f64(b)); }

static uint32_t compare(double x, double y)
{
    if (x != x || y != y)
        return CMP_UNORDERED;
    return x < y ? CMP_LESS : x == y ? CMP_EQUAL : CMP_GREATER;
}

/* A binary32 as an integer that orders as the number does (-0 and +0 alike). */
static int32_t ordered(uint32_t a)
{
    return a >> 31 ? -(int32_t)(a & 0x7FFFFFFFu) : (int32_t)a;
}

uint32_t hsx_fcmps(uint32_t a, uint32_t b)
{
    if ((a & 0x7FFFFFFFu) > 0x7F800000u || (b & 0x7FFFFFFFu) > 0x7F800000u)
        return CMP_UNORDERED;
    return ordered(a) < ordered(b) ? CMP_LESS : ordered(a) == ordered(b) ? CMP_EQUAL : CMP_GREATER;
}
uint32_t hsx_dcmp(uint64_t a, uint64_t b) { return compare(f64(a), f64(b)); }

uint64_t hsx_s2d(uint32_t a)
{
    if ((a & 0x7F800000u) == 0x7F800000u && (a & 0x7FFFFFu))   /* NaN: keep sign, payload */
        return ((uint64_t)(a >> 31) << 63) | F64_NAN | ((uint64_t)(a & 0x7FFFFFu) << 29);
    return bits64((double)f32(a));
}

uint32_t hsx_d2s(uint64_t a)
{
    double d = f64(a);
    if (d != d)
        return ((uint32_t)(a >> 63) << 31) | F32_NAN;
    return bits32((float)d);
}

/* An integer to binary32 through binary64, exactly: past 53 bits the lost bits are
 * folded into the last kept one (round to odd), which rounds once more to binary32 as
 * the integer itself would. */
uint32_t hsx_u2s(uint64_t v)
{
    double scale = 1;
    while (v >> 53) {
        v = v >> 1 | (v & 1);
        scale *= 2;
    }
    return bits32(single((double)v * scale));
}

uint32_t hsx_i2s(int64_t v)
{
    return v < 0 ? hsx_u2s(0 - (uint64_t)v) | 0x80000000u : hsx_u2s((uint64_t)v);
}
uint64_t hsx_i2d(int64_t v) { return bits64((double)v); }
uint64_t hsx_u2d(uint64_t v) { return bits64((double)v); }

/* Truncate toward zero as the soft-float routines do: signed, NaN or out of range gives
 * the most negative integer; unsigned, a negative input converts as signed (then taken
 * as unsigned), NaN or too large gives 0. */
static uint64_t to_int(double x, int negative, int bits, int is_signed)
{
    double limit = bits == 32 ? 4294967296.0 : 18446744073709551616.0;   /* 2^bits */
    uint64_t mask = bits == 32 ? 0xFFFFFFFFull : 0xFFFFFFFFFFFFFFFFull;
    if (is_signed || negative) {
        double half = limit / 2;
        uint64_t minimum = (uint64_t)1 << (bits - 1);
        if (!(x < half && x >= -half))          /* NaN, infinities, out of range */
            return minimum;
        return (uint64_t)(int64_t)x & mask;
    }
    if (!(x < limit))
        return 0;
    return (uint64_t)x & mask;
}

uint64_t hsx_s2int(uint32_t a, int bits, int is_signed)
{
    return to_int((double)f32(a), (int)(a >> 31), bits, is_signed);
}

uint64_t hsx_d2int(uint64_t a, int bits, int is_signed)
{
    return to_int(f64(a), (int)(a >> 63), bits, is_signed);
}
