/* 64-bit division, remainder and variable shifts (called by compiled code).
 *
 * Written on 32-bit halves only: the compiler lowers 64-bit shifts by a variable and
 * 64-bit division to calls of these very routines. */
#include <stdint.h>

typedef union {
    uint64_t all;
    struct { uint32_t lo, hi; } s;
} dw;

uint64_t __ashldi3(uint64_t a, int n) {
    dw x = { a }, r;
    n &= 63;
    if (n == 0)
        return a;
    if (n >= 32) {
        r.s.lo = 0;
        r.s.hi = x.s.lo << (n - 32);
    } else {
        r.s.lo = x.s.lo << n;
        r.s.hi = (x.s.hi << n) | (x.s.lo >> (32 - n));
    }
    return r.all;
}

uint64_t __lshrdi3(uint64_t a, int n) {
    dw x = { a }, r;
    n &= 63;
    if (n == 0)
        return a;
    if (n >= 32) {
        r.s.hi = 0;
        r.s.lo = x.s.hi >> (n - 32);
    } else {
        r.s.hi = x.s.hi >> n;
        r.s.lo = (x.s.lo >> n) | (x.s.hi << (32 - n));
    }
    return r.all;
}

int64_t __ashrdi3(int64_t a, int n) {
    dw x = { (uint64_t)a }, r;
    n &= 63;
    if (n == 0)
        return a;
    if (n >= 32) {
        r.s.hi = (uint32_t)((int32_t)x.s.hi >> 31);
        r.s.lo = (uint32_t)((int32_t)x.s.hi >> (n - 32));
    } else {
        r.s.hi = (uint32_t)((int32_t)x.s.hi >> n);
        r.s.lo = (x.s.lo >> n) | (x.s.hi << (32 - n));
    }
    return (int64_t)r.all;
}

static int clz32(uint32_t x) {
    int n = 0;
    if (!(x & 0xFFFF0000u)) { n += 16; x <<= 16; }
    if (!(x & 0xFF000000u)) { n += 8; x <<= 8; }
    if (!(x & 0xF0000000u)) { n += 4; x <<= 4; }
    if (!(x & 0xC0000000u)) { n += 2; x <<= 2; }
    if (!(x & 0x80000000u)) { n += 1; }
    return n;
}

/* Unsigned 64-bit division: shift-subtract over the quotient bits that can be set. */
uint64_t __hsx_udivmoddi4(uint64_t num, uint64_t den, uint64_t *rem) {
    dw n = { num }, d = { den };
    if (d.s.hi == 0 && n.s.hi == 0) {
        if (rem)
            *rem = n.s.lo % d.s.lo;
        return n.s.lo / d.s.lo;
    }
    if (den > num) {
        if (rem)
            *rem = num;
        return 0;
    }
    int dz = d.s.hi ? clz32(d.s.hi) : 32 + clz32(d.s.lo);
    int nz = n.s.hi ? clz32(n.s.hi) : 32 + clz32(n.s.lo);
    int shift = dz - nz;                       /* 0..63 */
    dw dd = { den }, q = { 0 }, r = { num };
    /* dd = den << shift, on halves */
    if (shift >= 32) {
        dd.s.hi = d.s.lo << (shift - 32);
        dd.s.lo = 0;
    } else if (shift > 0) {
        dd.s.hi = (d.s.hi << shift) | (d.s.lo >> (32 - shift));
        dd.s.lo = d.s.lo << shift;
    }
    for (int i = 0; i <= shift; i++) {
        /* q <<= 1 */
        q.s.hi = (q.s.hi << 1) | (q.s.lo >> 31);
        q.s.lo <<= 1;
        if (r.all >= dd.all) {
            r.all -= dd.all;
            q.s.lo |= 1;
        }
        /* dd >>= 1 */
        dd.s.lo = (dd.s.lo >> 1) | (dd.s.hi << 31);
        dd.s.hi >>= 1;
    }
    if (rem)
        *rem = r.all;
    return q.all;
}

uint64_t __udivdi3(uint64_t a, uint64_t b) { return __hsx_udivmoddi4(a, b, 0); }

uint64_t __umoddi3(uint64_t a, uint64_t b) {
    uint64_t r;
    __hsx_udivmoddi4(a, b, &r);
    return r;
}

int64_t __divdi3(int64_t a, int64_t b) {
    uint64_t ua = a < 0 ? 0 - (uint64_t)a : (uint64_t)a;
    uint64_t ub = b < 0 ? 0 - (uint64_t)b : (uint64_t)b;
    uint64_t q = __hsx_udivmoddi4(ua, ub, 0);
    return (a < 0) != (b < 0) ? (int64_t)(0 - q) : (int64_t)q;
}

int64_t __moddi3(int64_t a, int64_t b) {
    uint64_t ua = a < 0 ? 0 - (uint64_t)a : (uint64_t)a;
    uint64_t ub = b < 0 ? 0 - (uint64_t)b : (uint64_t)b;
    uint64_t r;
    __hsx_udivmoddi4(ua, ub, &r);
    return a < 0 ? (int64_t)(0 - r) : (int64_t)r;
}

/* The overflow bit of llvm.umul.with.overflow.i64 (the product is computed inline). */
int __hsx_umulo64(uint64_t a, uint64_t b) {
    dw x = { a }, y = { b };
    if (x.s.hi && y.s.hi)
        return 1;
    uint64_t cross = (uint64_t)x.s.hi * y.s.lo + (uint64_t)x.s.lo * y.s.hi;
    if (cross >> 32)
        return 1;
    uint64_t low = (uint64_t)x.s.lo * y.s.lo;
    return low + (cross << 32) < low;
}

/* The overflow bit of llvm.smul.with.overflow.i64. */
int __hsx_smulo64(int64_t a, int64_t b) {
    uint64_t ma = a < 0 ? 0 - (uint64_t)a : (uint64_t)a;
    uint64_t mb = b < 0 ? 0 - (uint64_t)b : (uint64_t)b;
    if (__hsx_umulo64(ma, mb))
        return 1;
    uint64_t m = ma * mb;
    uint64_t limit = (uint64_t)INT64_MAX + ((a < 0) != (b < 0));    /* -2^63 is fine */
    return m > limit;
}
