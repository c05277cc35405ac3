/* strtod, strtof, strtold, atof: correctly rounded (to nearest, ties to even).
 *
 * Short decimal inputs take the exact fast path (an integer of at most 15 digits times
 * or divided by an exactly representable power of ten: one rounding).  Everything else
 * is converted exactly: the decimal digits are scaled by powers of two, digit by digit,
 * until the binary exponent and the mantissa bits fall out (the method of Go's strconv,
 * "decimal" slow path).  Hexadecimal floats are rounded from their bits. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DIGITS 800
#define MAX_SHIFT 27              /* keeps the digit arithmetic in 32 bits */

struct decimal {
    unsigned char d[MAX_DIGITS];  /* digit values, most significant first */
    int nd;                       /* digits used */
    int dp;                       /* decimal point: value = 0.d[0]d[1]... * 10^dp */
    int trunc;                    /* non-zero digits were dropped beyond d[nd-1] */
};

struct format {
    int mantbits, expbits, bias;  /* bias: the exponent of the smallest normal - 1 */
};

static const struct format binary64 = { 52, 11, -1023 };
static const struct format binary32 = { 23, 8, -127 };

static void trim(struct decimal *a) {
    while (a->nd > 0 && a->d[a->nd - 1] == 0)
        a->nd--;
    if (a->nd == 0)
        a->dp = 0;
}

/* a /= 2^k, 1 <= k <= MAX_SHIFT. */
static void right_shift(struct decimal *a, int k) {
    int r = 0, w = 0;
    uint32_t n = 0;
    for (; (n >> k) == 0; r++) {
        if (r >= a->nd) {
            if (n == 0) {
                a->nd = 0;
                return;
            }
            while ((n >> k) == 0) {
                n *= 10;
                r++;
            }
            break;
        }
        n = n * 10 + a->d[r];
    }
    a->dp -= r - 1;
    uint32_t mask = (1u << k) - 1;
    for (; r < a->nd; r++) {
        uint32_t c = a->d[r];
        a->d[w++] = (unsigned char)(n >> k);
        n = (n & mask) * 10 + c;
    }
    while (n > 0) {
        uint32_t dig = n >> k;
        n &= mask;
        if (w < MAX_DIGITS)
            a->d[w++] = (unsigned char)dig;
        else if (dig > 0)
            a->trunc = 1;
        n *= 10;
    }
    a->nd = w;
    trim(a);
}

/* The number of digits a *= 2^k adds: the digits of 2^k, one fewer when the number's
 * leading digits are below 5^k (as digits). */
static int new_digits(const struct decimal *a, int k) {
    uint64_t p5 = 1;
    for (int i = 0; i < k; i++)
        p5 *= 5;
    char cut[24];
    int len = 0;
    for (uint64_t v = p5; v; v /= 10)
        cut[len++] = (char)(v % 10);
    int delta = 1;                            /* digits of 2^k */
    for (uint32_t v = 1u << k; v >= 10; v /= 10)
        delta++;
    for (int i = 0; i < len; i++) {
        int digit = cut[len - 1 - i];
        if (i >= a->nd)
            return delta - 1;
        if (a->d[i] != digit)
            return a->d[i] < digit ? delta - 1 : delta;
    }
    return delta;
}

/* a *= 2^k, 1 <= k <= MAX_SHIFT. */
static void left_shift(struct decimal *a, int k) {
    int delta = new_digits(a, k);
    int r = a->nd, w = a->nd + delta;
    uint32_t n = 0;
    for (r--; r >= 0; r--) {
        n += (uint32_t)a->d[r] << k;
        uint32_t quo = n / 10, rem = n - 10 * quo;
        w--;
        if (w < MAX_DIGITS)
            a->d[w] = (unsigned char)rem;
        else if (rem != 0)
            a->trunc = 1;
        n = quo;
    }
    while (n > 0) {
        uint32_t quo = n / 10, rem = n - 10 * quo;
        w--;
        if (w < MAX_DIGITS)
            a->d[w] = (unsigned char)rem;
        else if (rem != 0)
            a->trunc = 1;
        n = quo;
    }
    a->nd += delta;
    if (a->nd > MAX_DIGITS)
        a->nd = MAX_DIGITS;
    a->dp += delta;
    trim(a);
}

static void shift(struct decimal *a, int k) {
    if (a->nd == 0)
        return;
    for (; k > MAX_SHIFT; k -= MAX_SHIFT)
        left_shift(a, MAX_SHIFT);
    if (k > 0)
        left_shift(a, k);
    for (; k < -MAX_SHIFT; k += MAX_SHIFT)
        right_shift(a, MAX_SHIFT);
    if (k < 0)
        right_shift(a, -k);
}

static int round_up(const struct decimal *a, int nd) {
    if (nd < 0 || nd >= a->nd)
        return 0;
    if (a->d[nd] == 5 && nd + 1 == a->nd) {    /* exactly halfway: to even */
        if (a->trunc)
            return 1;
        return nd > 0 && (a->d[nd - 1] & 1);
    }
    return a->d[nd] >= 5;
}

static uint64_t rounded_integer(const struct decimal *a) {
    uint64_t n = 0;
    int i = 0;
    for (; i < a->dp && i < a->nd; i++)
        n = n * 10 + a->d[i];
    for (; i < a->dp; i++)
        n *= 10;
    return n + (uint64_t)round_up(a, a->dp);
}

static const unsigned char powtab[] = { 1, 3, 6, 9, 13, 16, 19, 23, 26 };

/* The bits of the value of `a` in format `f` (without the sign); *range set when the
 * result overflowed to infinity or underflowed to zero. */
static uint64_t decimal_bits(struct decimal *a, const struct format *f, int *range) {
    uint64_t inf = ((1ull << f->expbits) - 1) << f->mantbits;
    int max_dp = f->expbits == 11 ? 310 : 40, min_dp = f->expbits == 11 ? -330 : -50;
    if (a->nd == 0)
        return 0;
    if (a->dp > max_dp) {
        *range = 1;
        return inf;
    }
    if (a->dp < min_dp) {
        *range = 1;
        return 0;
    }
    int exp = 0;
    while (a->dp > 0) {
        int n = a->dp >= (int)sizeof powtab ? MAX_SHIFT : powtab[a->dp];
        shift(a, -n);
        exp += n;
    }
    while (a->dp < 0 || (a->dp == 0 && a->d[0] < 5)) {
        int n = -a->dp >= (int)sizeof powtab ? MAX_SHIFT : powtab[-a->dp];
        shift(a, n);
        exp -= n;
    }
    exp--;                                     /* [0.5, 1) -> [1, 2) */
    int tiny = exp < f->bias + 1;
    if (tiny) {                                /* subnormal */
        int n = f->bias + 1 - exp;
        shift(a, -n);
        exp += n;
    }
    if (exp - f->bias >= (1 << f->expbits) - 1) {
        *range = 1;
        return inf;
    }
    shift(a, 1 + f->mantbits);
    int inexact = a->nd > a->dp || a->trunc;
    uint64_t mant = rounded_integer(a);
    if (mant == 2ull << f->mantbits) {
        mant >>= 1;
        exp++;
        if (exp - f->bias >= (1 << f->expbits) - 1) {
            *range = 1;
            return inf;
        }
    }
    if (!(mant & (1ull << f->mantbits)))       /* subnormal */
        exp = f->bias;
    if (tiny && inexact)                       /* underflow (tiny before rounding) */
        *range = 1;
    return (mant & ((1ull << f->mantbits) - 1)) |
           ((uint64_t)((exp - f->bias) & ((1 << f->expbits) - 1)) << f->mantbits);
}

/* The bits of m * 2^e2 (plus a little more when `sticky`), rounded to format `f`. */
static uint64_t binary_bits(uint64_t m, int e2, int sticky, const struct format *f,
                            int *range) {
    if (m == 0)
        return 0;
    while (!(m >> 63)) {
        m <<= 1;
        e2--;
    }
    int top = e2 + 63;                         /* the exponent of the leading bit */
    int minexp = f->bias + 1;                  /* that of the smallest normal number */
    int keep = f->mantbits + 1;                /* mantissa bits kept */
    if (top < minexp)
        keep -= minexp - top;                  /* subnormal: fewer */
    if (keep < 0) {
        *range = 1;
        return 0;
    }
    int drop = 64 - keep;                      /* 11..64 */
    uint64_t mant = drop == 64 ? 0 : m >> drop;
    uint64_t rest = drop == 64 ? m : m & ((1ull << drop) - 1);
    uint64_t half = 1ull << (drop - 1);
    if (rest > half || (rest == half && (sticky || (mant & 1))))
        mant++;
    int exp = top < minexp ? minexp : top;
    if (mant >> (f->mantbits + 1)) {           /* rounding carried into a new bit */
        mant >>= 1;
        exp++;
    }
    if (exp - f->bias >= (1 << f->expbits) - 1) {
        *range = 1;
        return ((1ull << f->expbits) - 1) << f->mantbits;
    }
    if (top < minexp && (rest != 0 || sticky)) /* underflow (tiny before rounding) */
        *range = 1;
    if (!(mant >> f->mantbits))                /* subnormal or zero */
        return mant;
    return (mant & ((1ull << f->mantbits) - 1)) |
           ((uint64_t)(exp - f->bias) << f->mantbits);
}

static int lower(int c) { return c >= 'A' && c <= 'Z' ? c + 32 : c; }

static int match(const char *s, const char *word) {
    int n = 0;
    while (word[n] && lower((unsigned char)s[n]) == word[n])
        n++;
    return word[n] ? 0 : n;
}

static int hex_value(int c) {
    if (c >= '0' && c <= '9') return c - '0';
    c = lower(c);
    return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

static int is_digit(int c) { return c >= '0' && c <= '9'; }

/* Add `digits` exponent text at *p to *exp (saturating); returns where it ends. */
static const char *exponent(const char *p, int *exp) {
    const char *q = p + 1;
    int negative = 0;
    if (*q == '+' || *q == '-')
        negative = *q++ == '-';
    if (!is_digit(*q))
        return p;                              /* no exponent after all */
    int e = 0;
    for (; is_digit(*q); q++)
        if (e < 100000)
            e = e * 10 + (*q - '0');
    *exp += negative ? -e : e;
    return q;
}

static const char *parse_hex(const char *p, const struct format *f, uint64_t *bits,
                             int *range) {
    uint64_t m = 0;
    int e2 = 0, sticky = 0, any = 0, seen_point = 0;
    for (;; p++) {
        if (*p == '.' && !seen_point) {
            seen_point = 1;
            continue;
        }
        int v = hex_value((unsigned char)*p);
        if (v < 0)
            break;
        any = 1;
        if (m >> 60) {                         /* no room: the digit only matters as sticky */
            sticky |= v != 0;
            if (!seen_point)
                e2 += 4;
        } else {
            m = m << 4 | (uint64_t)v;
            if (seen_point)
                e2 -= 4;
        }
    }
    if (!any)
        return NULL;
    if (*p == 'p' || *p == 'P')
        p = exponent(p, &e2);
    *bits = binary_bits(m, e2, sticky, f, range);
    return p;
}

/* Parse a floating-point number; the bits (sign included) in format `f`. */
static uint64_t parse(const char *s, char **end, const struct format *f) {
    const char *p = s;
    while (*p == ' ' || (*p >= '\t' && *p <= '\r'))
        p++;
    int negative = 0;
    if (*p == '+' || *p == '-')
        negative = *p++ == '-';
    uint64_t sign = negative ? 1ull << (f->mantbits + f->expbits) : 0;
    uint64_t inf = ((1ull << f->expbits) - 1) << f->mantbits;
    uint64_t bits = 0;
    int range = 0, n;
    if ((n = match(p, "inf"))) {
        p += n;
        if ((n = match(p, "inity")))
            p += n;
        bits = inf;
    } else if ((n = match(p, "nan"))) {
        p += n;
        if (*p == '(') {
            const char *q = p + 1;
            while (is_digit(*q) || (lower(*q) >= 'a' && lower(*q) <= 'z') || *q == '_')
                q++;
            if (*q == ')')
                p = q + 1;
        }
        bits = inf | 1ull << (f->mantbits - 1);
    } else if (p[0] == '0' && lower(p[1]) == 'x' &&
               (hex_value((unsigned char)p[2]) >= 0 ||
                (p[2] == '.' && hex_value((unsigned char)p[3]) >= 0))) {
        p = parse_hex(p + 2, f, &bits, &range);
    } else {
        struct decimal a;
        a.nd = a.dp = a.trunc = 0;
        int any = 0, seen_point = 0;
        int exp10 = 0;
        for (;; p++) {
            if (*p == '.' && !seen_point) {
                seen_point = 1;
                continue;
            }
            if (!is_digit(*p))
                break;
            any = 1;
            int d = *p - '0';
            if (d == 0 && a.nd == 0) {          /* leading zero */
                if (seen_point)
                    a.dp--;
                continue;
            }
            if (!seen_point)
                a.dp++;
            if (a.nd < MAX_DIGITS) {
                a.d[a.nd++] = (unsigned char)d;
            } else if (d) {
                a.trunc = 1;
            }
        }
        if (!any) {
            if (end)
                *end = (char *)s;
            return 0;
        }
        if (*p == 'e' || *p == 'E')
            p = exponent(p, &exp10);
        if (a.nd > 0 && (exp10 > 100000 || exp10 < -100000))
            exp10 = exp10 > 0 ? 100000 : -100000;
        a.dp += exp10;
        trim(&a);                              /* trailing zeros now count in dp only */
        uint64_t small = 0;                    /* the first 19 digits, for the fast path */
        for (int k = 0; k < a.nd && k < 19; k++)
            small = small * 10 + a.d[k];
        int scale = a.dp - a.nd;               /* value = small * 10^scale when nd <= 19 */
        static const double pow10[] = { 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9,
            1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22 };
        if (a.nd == 0) {
            bits = 0;
        } else if (f == &binary64 && a.nd <= 15 && !a.trunc && scale >= -22 && scale <= 22) {
            double v = (double)small;
            v = scale < 0 ? v / pow10[-scale] : v * pow10[scale];
            memcpy(&bits, &v, sizeof bits);
        } else if (f == &binary32 && a.nd <= 7 && !a.trunc && scale >= 0 && scale <= 10) {
            float v = (float)((double)small * pow10[scale]);   /* exact product, one rounding */
            uint32_t b;
            memcpy(&b, &v, sizeof b);
            bits = b;
        } else {
            bits = decimal_bits(&a, f, &range);
        }
    }
    if (end)
        *end = (char *)p;
    if (range)
        errno = ERANGE;
    return bits | sign;
}

double strtod(const char *s, char **end) {
    uint64_t bits = parse(s, end, &binary64);
    double v;
    memcpy(&v, &bits, sizeof v);
    return v;
}

float strtof(const char *s, char **end) {
    uint32_t bits = (uint32_t)parse(s, end, &binary32);
    float v;
    memcpy(&v, &bits, sizeof v);
    return v;
}

long double strtold(const char *s, char **end) { return strtod(s, end); }

double atof(const char *s) { return strtod(s, NULL); }
