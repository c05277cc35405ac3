/* IEEE-754 binary32/binary64 arithmetic in integers: round to nearest, ties to even,
 * subnormals, infinities and NaN (a quiet NaN result is always the default NaN).
 *
 * Included once per format by softfloat_sf.c and softfloat_df.c after defining
 *   REP     unsigned integer of the format's width
 *   SIG     explicit significand bits (23 / 52)
 *   EXPB    exponent bits (8 / 11)
 *   WIDE_MUL(a, b, hi, lo)   full product of two REP values as two REPs
 *   FN(name)                 the routine name for this format
 *
 * Significands are worked on with three extra low bits (guard, round, sticky). */
#define BITS ((int)sizeof(REP) * 8)
#define SIGN_BIT ((REP)1 << (BITS - 1))
#define MAX_EXP ((1 << EXPB) - 1)
#define BIAS (MAX_EXP >> 1)
#define IMPLICIT ((REP)1 << SIG)
#define SIG_MASK (IMPLICIT - 1)
#define ABS_MASK (SIGN_BIT - 1)
#define INF_REP ((REP)MAX_EXP << SIG)
#define QNAN_REP (INF_REP | ((REP)1 << (SIG - 1)))

static int FN(is_nan)(REP a) { return (a & ABS_MASK) > INF_REP; }

/* x >> n, with every bit shifted out ORed into bit 0. */
static REP FN(shr_sticky)(REP x, int n) {
    if (n <= 0)
        return x;
    if (n >= BITS)
        return x != 0;
    return (x >> n) | ((x & (((REP)1 << n) - 1)) != 0);
}

/* Round and pack: `sig` has its leading one at bit SIG+3 (or is smaller for a result
 * already known to be subnormal), `exp` is the biased exponent of that bit. */
static REP FN(pack)(REP sign, int exp, REP sig) {
    if (exp >= MAX_EXP)
        return sign | INF_REP;
    if (exp <= 0) {
        sig = FN(shr_sticky)(sig, 1 - exp);
        exp = 0;
    }
    REP low = sig & 7;
    sig >>= 3;
    if (low > 4 || (low == 4 && (sig & 1)))
        sig++;
    if (exp == 0)                       /* subnormal; a carry into IMPLICIT makes it normal */
        return sign | sig;
    if (sig >> (SIG + 1)) {
        sig >>= 1;
        exp++;
        if (exp >= MAX_EXP)
            return sign | INF_REP;
    }
    return sign | ((REP)exp << SIG) | (sig & SIG_MASK);
}

/* Split a finite non-zero value into a normalised significand (leading one at SIG). */
static int FN(unpack)(REP a, REP *sig) {
    int exp = (int)((a >> SIG) & MAX_EXP);
    REP s = a & SIG_MASK;
    if (exp == 0) {
        exp = 1;
        while (!(s & IMPLICIT)) {
            s <<= 1;
            exp--;
        }
    } else {
        s |= IMPLICIT;
    }
    *sig = s;
    return exp;
}

static REP FN(add)(REP a, REP b) {
    REP aabs = a & ABS_MASK, babs = b & ABS_MASK;
    if (aabs > INF_REP || babs > INF_REP)
        return QNAN_REP;
    if (aabs == INF_REP) {
        if (babs == INF_REP && (a ^ b) & SIGN_BIT)
            return QNAN_REP;
        return a;
    }
    if (babs == INF_REP)
        return b;
    if (aabs == 0)
        return babs == 0 ? (a & b) : b;
    if (babs == 0)
        return a;
    if (babs > aabs) {                  /* make |a| >= |b| */
        REP t = a; a = b; b = t;
    }
    REP sa, sb;
    int ea = FN(unpack)(a, &sa);
    int eb = FN(unpack)(b, &sb);
    sa <<= 3;
    sb = FN(shr_sticky)(sb << 3, ea - eb);
    REP sign = a & SIGN_BIT;
    if ((a ^ b) & SIGN_BIT) {
        sa -= sb;
        if (sa == 0)
            return 0;
        while (!(sa & (IMPLICIT << 3))) {
            sa <<= 1;
            ea--;
        }
    } else {
        sa += sb;
        if (sa & (IMPLICIT << 4)) {
            sa = (sa >> 1) | (sa & 1);
            ea++;
        }
    }
    return FN(pack)(sign, ea, sa);
}

static REP FN(mul)(REP a, REP b) {
    REP sign = (a ^ b) & SIGN_BIT;
    REP aabs = a & ABS_MASK, babs = b & ABS_MASK;
    if (aabs > INF_REP || babs > INF_REP)
        return QNAN_REP;
    if (aabs == INF_REP || babs == INF_REP) {
        if (aabs == 0 || babs == 0)
            return QNAN_REP;
        return sign | INF_REP;
    }
    if (aabs == 0 || babs == 0)
        return sign;
    REP sa, sb, hi, lo;
    int exp = FN(unpack)(a, &sa) + FN(unpack)(b, &sb) - BIAS;
    WIDE_MUL(sa, sb, hi, lo);
    /* product's leading one is at bit 2*SIG or 2*SIG+1; bring it to SIG+3 (or SIG+4) */
    REP sig = (hi << (BITS - (SIG - 3))) | (lo >> (SIG - 3)) |
              ((lo & (((REP)1 << (SIG - 3)) - 1)) != 0);
    if (sig & (IMPLICIT << 4)) {
        sig = (sig >> 1) | (sig & 1);
        exp++;
    }
    return FN(pack)(sign, exp, sig);
}

static REP FN(div)(REP a, REP b) {
    REP sign = (a ^ b) & SIGN_BIT;
    REP aabs = a & ABS_MASK, babs = b & ABS_MASK;
    if (aabs > INF_REP || babs > INF_REP)
        return QNAN_REP;
    if (aabs == INF_REP)
        return babs == INF_REP ? QNAN_REP : sign | INF_REP;
    if (babs == INF_REP)
        return sign;
    if (babs == 0)
        return aabs == 0 ? QNAN_REP : sign | INF_REP;
    if (aabs == 0)
        return sign;
    REP sa, sb;
    int exp = FN(unpack)(a, &sa) - FN(unpack)(b, &sb) + BIAS;
    if (sa < sb) {
        sa <<= 1;
        exp--;
    }
    REP q = 0;
    for (int i = 0; i < SIG + 4; i++) {      /* quotient bits SIG+3 .. 0 */
        q <<= 1;
        if (sa >= sb) {
            sa -= sb;
            q |= 1;
        }
        sa <<= 1;
    }
    return FN(pack)(sign, exp, q | (sa != 0));
}

/* Compare: 1 a < b, 2 a > b, 4 equal, 8 unordered (see isel FCMP_MASKS). */
static int FN(cmp)(REP a, REP b) {
    if (FN(is_nan)(a) || FN(is_nan)(b))
        return 8;
    if (((a | b) & ABS_MASK) == 0)
        return 4;
    /* map sign-magnitude to an ordered two's-complement key */
    REP ka = (a & SIGN_BIT) ? ~a + 1 + SIGN_BIT : a;
    REP kb = (b & SIGN_BIT) ? ~b + 1 + SIGN_BIT : b;
    ka ^= SIGN_BIT;
    kb ^= SIGN_BIT;
    return ka < kb ? 1 : ka > kb ? 2 : 4;
}

/* An unsigned 64-bit integer (with a sign) to this format. */
static REP FN(from_u64)(REP sign, uint64_t v) {
    if (v == 0)
        return sign;
    int top = 63;
    while (!(v >> top))
        top--;
    int exp = BIAS + top;
    uint64_t sig;
    if (top > SIG + 3)
        sig = (v >> (top - (SIG + 3))) | ((v & ((1ull << (top - (SIG + 3))) - 1)) != 0);
    else
        sig = v << ((SIG + 3) - top);
    return FN(pack)(sign, exp, (REP)sig);
}

/* This format to a 64-bit integer, truncating; `*ok` cleared when out of range. */
static uint64_t FN(to_u64)(REP a, int limit_bits, int *ok) {
    REP abs = a & ABS_MASK;
    *ok = 1;
    if (abs > INF_REP) {
        *ok = 0;
        return 0;
    }
    int exp = (int)(abs >> SIG) - BIAS;
    if (exp < 0)
        return 0;
    if (exp >= limit_bits) {
        *ok = 0;
        return 0;
    }
    uint64_t sig = (uint64_t)((abs & SIG_MASK) | IMPLICIT);
    return exp >= SIG ? sig << (exp - SIG) : sig >> (SIG - exp);
}
