/* fma: x * y + z rounded once, by exact integer arithmetic on 128-bit values (the
 * product's 106 bits and z aligned to it, bits shifted out kept as a sticky bit). */
#include "math_impl.h"

typedef struct { uint64_t hi, lo; } u128;

static u128 mul64(uint64_t a, uint64_t b) {
    uint64_t a0 = (uint32_t)a, a1 = a >> 32, b0 = (uint32_t)b, b1 = b >> 32;
    uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    uint64_t mid = (p00 >> 32) + (uint32_t)p01 + (uint32_t)p10;
    u128 r = { p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32), (mid << 32) | (uint32_t)p00 };
    return r;
}

static u128 shl(u128 a, int n) {
    if (n == 0)
        return a;
    u128 r = n >= 64 ? (u128){ a.lo << (n - 64), 0 } : (u128){ a.hi << n | a.lo >> (64 - n),
                                                                a.lo << n };
    return r;
}

/* a >> n, with the bits shifted out OR-ed into bit 0. */
static u128 shr_sticky(u128 a, int n) {
    if (n == 0)
        return a;
    if (n >= 128)
        return (u128){ 0, (a.hi | a.lo) != 0 };
    u128 r;
    uint64_t lost;
    if (n >= 64) {
        lost = a.lo | (n > 64 ? a.hi << (128 - n) : 0);
        r = (u128){ 0, a.hi >> (n - 64) };
    } else {
        lost = a.lo << (64 - n);
        r = (u128){ a.hi >> n, a.hi << (64 - n) | a.lo >> n };
    }
    r.lo |= lost != 0;
    return r;
}

static int less(u128 a, u128 b) { return a.hi < b.hi || (a.hi == b.hi && a.lo < b.lo); }

static u128 add(u128 a, u128 b) {
    u128 r = { a.hi + b.hi, a.lo + b.lo };
    r.hi += r.lo < a.lo;
    return r;
}

static u128 sub(u128 a, u128 b) {
    u128 r = { a.hi - b.hi, a.lo - b.lo };
    r.hi -= a.lo < b.lo;
    return r;
}

/* |x| = m 2^e with m a 53-bit integer; x finite, non-zero. */
static uint64_t parts(double x, int *e) {
    uint64_t u = asuint64(x);
    int f = (int)((u >> 52) & 0x7FF);
    uint64_t m = u & ((1ull << 52) - 1);
    if (f == 0) {
        f = 1;
    } else {
        m |= 1ull << 52;
    }
    *e = f - 1075;
    return m;
}

static int top_bit(u128 a) {
    int n = 127;
    uint64_t w = a.hi;
    if (!w) {
        w = a.lo;
        n = 63;
    }
    while (!(w >> 63)) {
        w <<= 1;
        n--;
    }
    return n;
}

double fma(double x, double y, double z) {
    if (!isfinite(x) || !isfinite(y) || x == 0 || y == 0)
        return x * y + z;
    if (!isfinite(z))
        return z;
    if (z == 0) {
        double p = x * y;                      /* exact unless it rounds: then so does fma */
        return p + z;
    }
    int ex, ey, ez;
    uint64_t mx = parts(x, &ex), my = parts(y, &ey), mz = parts(z, &ez);
    int negative_p = signbit(x) != signbit(y), negative_z = signbit(z) != 0;
    u128 a = shl(mul64(mx, my), 20);           /* below 2^126 */
    int ea = ex + ey - 20;
    u128 b = shl((u128){ 0, mz }, 72);         /* below 2^125 */
    int eb = ez - 72;
    int e;
    if (ea >= eb) {
        b = shr_sticky(b, ea - eb > 200 ? 200 : ea - eb);
        e = ea;
    } else {
        a = shr_sticky(a, eb - ea > 200 ? 200 : eb - ea);
        e = eb;
    }
    u128 s;
    int negative;
    if (negative_p == negative_z) {
        s = add(a, b);
        negative = negative_p;
    } else if (less(a, b)) {
        s = sub(b, a);
        negative = negative_z;
    } else {
        s = sub(a, b);
        negative = negative_p;
    }
    if (!s.hi && !s.lo)
        return 0.0;                            /* exact cancellation: +0 */
    int lead = top_bit(s);
    int q = lead - 52;                         /* lowest bit kept */
    if (q + e < -1074)
        q = -1074 - e;                         /* subnormal: fewer bits */
    /* bits shifted out as sticky only ever happen with lead >= 123, far above bit 0 */
    uint64_t mant;
    if (q <= 0) {
        mant = shl(s, -q).lo;
    } else if (q > lead + 1) {
        mant = 0;                              /* below half the smallest subnormal */
    } else {
        u128 kept = q >= 64 ? (u128){ 0, s.hi >> (q - 64) }
                            : (u128){ s.hi >> q, s.hi << (64 - q) | s.lo >> q };
        mant = kept.lo;
        u128 below = sub(s, shl(kept, q));     /* the bits below q: half is bit q - 1 */
        u128 half = shl((u128){ 0, 1 }, q - 1);
        if (less(half, below) || (!less(below, half) && (mant & 1)))
            mant++;
    }
    double r = ldexp((double)mant, q + e);
    return negative ? -r : r;
}

float fmaf(float x, float y, float z) {
    /* the product is exact in double; the sum rounds in double, then to float: within
     * 1 ulp of float, and exact in all but rare halfway cases */
    return (float)((double)x * y + z);
}
