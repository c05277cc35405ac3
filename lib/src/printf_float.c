/* printf's floating-point conversions: %f %F %e %E %g %G %a %A.
 *
 * The decimal ones print the exact binary value rounded to nearest, ties to even (as
 * glibc does), using small big-number arithmetic: the integer part in base 2^32 words
 * converted to decimal, the fraction as a binary fraction multiplied by ten per digit.
 * %a prints the bits in hexadecimal, as glibc does (subnormals as 0x0.…p-1022). */
#include "printf_impl.h"

/* -- floating point ----------------------------------------------------------------- */

#define WORDS 36
#define MAX_DIGITS 520

struct digits {
    char d[MAX_DIGITS];
    int n;             /* digits kept (most significant first) */
    int exp10;         /* d[0] stands for d[0] * 10^exp10 */
};

/* value / 10^9 in place; returns the remainder. */
static uint32_t big_div_1e9(uint32_t *w, int *n) {
    uint64_t rem = 0;
    for (int i = *n - 1; i >= 0; i--) {
        uint64_t cur = (rem << 32) | w[i];
        w[i] = (uint32_t)(cur / 1000000000u);
        rem = cur % 1000000000u;
    }
    while (*n > 0 && w[*n - 1] == 0)
        (*n)--;
    return (uint32_t)rem;
}

/* fraction (binary point above the top word) * 10; returns the digit carried out. */
static int big_mul10(uint32_t *w, int n) {
    uint32_t carry = 0;
    for (int i = 0; i < n; i++) {
        uint64_t cur = (uint64_t)w[i] * 10u + carry;
        w[i] = (uint32_t)cur;
        carry = (uint32_t)(cur >> 32);
    }
    return (int)carry;
}

static int big_zero(const uint32_t *w, int n) {
    for (int i = 0; i < n; i++)
        if (w[i])
            return 0;
    return 1;
}

/* The decimal digits of |x| (finite, non-zero), rounded to `count` digits when
 * `count` >= 0, or to the digit at 10^-`fixed` when count < 0 (%f). */
static void decimal(double x, int count, int fixed, struct digits *out) {
    union { double d; uint64_t u; } bits = { x };
    int e = (int)((bits.u >> 52) & 0x7FF);
    uint64_t m = bits.u & 0xFFFFFFFFFFFFFull;
    if (e == 0)
        e = 1;
    else
        m |= 1ull << 52;
    e -= 1075;                         /* x = m * 2^e */

    uint32_t ip[WORDS];                /* integer part, little-endian words */
    int ipn = 0;
    uint32_t fp[WORDS];                /* fraction, binary point above fp[fpn-1] */
    int fpn = 0;
    memset(ip, 0, sizeof ip);
    memset(fp, 0, sizeof fp);
    if (e >= 0) {
        ip[e / 32] = (uint32_t)(m << (e % 32));
        ip[e / 32 + 1] = (uint32_t)((m << (e % 32)) >> 32);
        ip[e / 32 + 2] = e % 32 ? (uint32_t)(m >> (64 - e % 32)) : 0;
        ipn = e / 32 + 3;
    } else {
        int k = -e;                    /* fraction bits */
        uint64_t whole = k < 64 ? m >> k : 0;
        ip[0] = (uint32_t)whole;
        ip[1] = (uint32_t)(whole >> 32);
        ipn = 2;
        uint64_t frac = k < 64 ? m & ((1ull << k) - 1) : m;
        fpn = (k + 31) / 32;
        int shift = fpn * 32 - k;      /* align the binary point to the top */
        int word = shift / 32, bit = shift % 32;
        uint64_t lo = frac << bit;
        fp[word] = (uint32_t)lo;
        if (word + 1 < fpn) fp[word + 1] = (uint32_t)(lo >> 32);
        if (bit && word + 2 < fpn) fp[word + 2] = (uint32_t)(frac >> (64 - bit));
    }
    while (ipn > 0 && ip[ipn - 1] == 0)
        ipn--;

    /* integer digits, most significant first */
    char intd[320];
    int intn = 0;
    while (ipn > 0) {
        uint32_t chunk = big_div_1e9(ip, &ipn);
        for (int i = 0; i < 9; i++) {
            intd[sizeof intd - 1 - intn++] = (char)('0' + chunk % 10);
            chunk /= 10;
        }
    }
    const char *ints = intd + sizeof intd - intn;
    while (intn > 0 && *ints == '0') {
        ints++;
        intn--;
    }

    int exp10;
    if (intn > 0) {
        exp10 = intn - 1;
    } else {
        exp10 = -1;
        int d;
        while ((d = big_mul10(fp, fpn)) == 0)
            exp10--;
        intd[0] = (char)('0' + d);     /* first significant fraction digit */
        ints = intd;
        intn = 1;
    }
    int want = count >= 0 ? count : exp10 + 1 + fixed;
    out->exp10 = exp10;
    if (want < 0) {                    /* rounds to zero at this position */
        out->n = 0;
        out->exp10 = -fixed - 1;
        return;
    }
    int n = 0;
    int next = 0, sticky = 0;
    int src = 0;
    while (n <= want) {
        int d;
        if (src < intn)
            d = ints[src++] - '0';
        else
            d = big_mul10(fp, fpn);
        if (n == want) {
            next = d;
            break;
        }
        if (n < MAX_DIGITS)
            out->d[n] = (char)d;
        n++;
    }
    for (int i = src; i < intn; i++)
        if (ints[i] != '0')
            sticky = 1;
    if (!big_zero(fp, fpn))
        sticky = 1;
    int kept = n < MAX_DIGITS ? n : MAX_DIGITS;
    int odd = kept > 0 ? out->d[kept - 1] & 1 : 0;
    if (next > 5 || (next == 5 && (sticky || odd))) {
        int i = kept - 1;
        while (i >= 0 && out->d[i] == 9)
            out->d[i--] = 0;
        if (i >= 0) {
            out->d[i]++;
        } else {                       /* 99..9 -> 100..0 */
            memmove(out->d + 1, out->d, (size_t)(kept < MAX_DIGITS ? kept : kept - 1));
            out->d[0] = 1;
            out->exp10++;
            if (count < 0 && kept < MAX_DIGITS)
                kept++;
        }
    }
    out->n = kept;
}

static int digit_at(const struct digits *g, int pos) {   /* digit of 10^pos */
    int k = g->exp10 - pos;
    return (k >= 0 && k < g->n) ? g->d[k] : 0;
}

/* %a: [-]0xh.hhhp±d, rounded to nearest-even at the precision's digit. */
static void hex_float(struct __hsx_sink *s, struct __hsx_spec *sp, uint64_t bits,
                      const char *sign, int upper) {
    const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
    int e = (int)((bits >> 52) & 0x7FF);
    uint64_t m = bits & 0xFFFFFFFFFFFFFull;
    int lead = e != 0;
    int exp = e == 0 ? (m ? -1022 : 0) : e - 1023;
    int prec = sp->prec;
    if (prec >= 0 && prec < 13) {
        int drop = 52 - 4 * prec;
        uint64_t rest = m & ((1ull << drop) - 1), half = 1ull << (drop - 1);
        m >>= drop;
        int odd = prec > 0 ? (int)(m & 1) : lead & 1;     /* of the last digit kept */
        if (rest > half || (rest == half && odd))
            m++;
        if (m >> (4 * prec)) {                 /* carried into the leading digit */
            m &= (1ull << (4 * prec)) - 1;
            lead++;
        }
        m <<= drop;
    }
    char body[112];
    int n = 0;
    body[n++] = digits[lead];
    int frac = prec >= 0 ? (prec > 96 ? 96 : prec) : 13;
    if (prec < 0)
        while (frac > 0 && ((m >> (52 - 4 * frac)) & 0xF) == 0)
            frac--;
    if (frac > 0 || (sp->flags & F_ALT))
        body[n++] = '.';
    for (int i = 1; i <= frac; i++)
        body[n++] = i <= 13 ? digits[(m >> (52 - 4 * i)) & 0xF] : '0';
    body[n++] = upper ? 'P' : 'p';
    body[n++] = exp < 0 ? '-' : '+';
    int a = exp < 0 ? -exp : exp;
    char tmp[6];
    int k = 0;
    do {
        tmp[k++] = (char)('0' + a % 10);
        a /= 10;
    } while (a);
    while (k)
        body[n++] = tmp[--k];
    char prefix[4] = { 0 };
    int p = 0;
    if (*sign)
        prefix[p++] = *sign;
    prefix[p++] = '0';
    prefix[p++] = upper ? 'X' : 'x';
    field(s, sp, prefix, 0, body, n);
}

void __hsx_printf_float(struct __hsx_sink *s, struct __hsx_spec *sp, double x) {
    union { double d; uint64_t u; } bits = { x };
    int negative = (int)(bits.u >> 63);
    int upper = sp->conv == 'F' || sp->conv == 'E' || sp->conv == 'G' || sp->conv == 'A';
    const char *prefix = negative ? "-" : (sp->flags & F_PLUS) ? "+" :
                         (sp->flags & F_SPACE) ? " " : "";
    if (((bits.u >> 52) & 0x7FF) == 0x7FF) {
        int nan = (bits.u & 0xFFFFFFFFFFFFFull) != 0;
        sp->flags &= ~F_ZERO;
        field(s, sp, prefix, 0, nan ? (upper ? "NAN" : "nan") : (upper ? "INF" : "inf"), 3);
        return;
    }
    char conv = (char)(sp->conv | 0x20);
    if (conv == 'a') {
        hex_float(s, sp, bits.u, prefix, sp->conv == 'A');
        return;
    }
    int prec = sp->prec < 0 ? 6 : sp->prec;
    static struct digits g;
    int zero = (bits.u << 1) == 0;
    int strip = 0;
    if (conv == 'g') {
        int p = prec == 0 ? 1 : prec;
        int x10 = 0;
        if (!zero) {
            decimal(x, p, 0, &g);
            x10 = g.exp10;
        }
        if (p > x10 && x10 >= -4) {
            conv = 'f';
            prec = p - 1 - x10;
        } else {
            conv = 'e';
            prec = p - 1;
        }
        strip = !(sp->flags & F_ALT);
    }
    if (zero) {
        g.n = 0;
        g.exp10 = 0;
    } else if (conv == 'f') {
        decimal(x, -1, prec, &g);
    } else {
        decimal(x, prec + 1, 0, &g);
    }
    static char body[MAX_DIGITS + 16];
    int n = 0;
    if (conv == 'f') {
        int top = g.n > 0 && g.exp10 > 0 ? g.exp10 : 0;
        for (int pos = top; pos >= 0; pos--)
            body[n++] = (char)('0' + digit_at(&g, pos));
        int frac = prec;
        if (strip)
            while (frac > 0 && digit_at(&g, -frac) == 0)
                frac--;
        if (frac > 0 || (sp->flags & F_ALT))
            body[n++] = '.';
        for (int pos = 1; pos <= frac && n < MAX_DIGITS + 8; pos++)
            body[n++] = (char)('0' + digit_at(&g, -pos));
    } else {
        int e10 = zero ? 0 : g.exp10;
        body[n++] = (char)('0' + (g.n > 0 ? g.d[0] : 0));
        int frac = prec;
        if (strip)
            while (frac > 0 && (frac >= g.n || g.d[frac] == 0))
                frac--;
        if (frac > 0 || (sp->flags & F_ALT))
            body[n++] = '.';
        for (int i = 1; i <= frac && n < MAX_DIGITS + 8; i++)
            body[n++] = (char)('0' + (i < g.n ? g.d[i] : 0));
        body[n++] = upper ? 'E' : 'e';
        body[n++] = e10 < 0 ? '-' : '+';
        int a = e10 < 0 ? -e10 : e10;
        if (a >= 100)
            body[n++] = (char)('0' + a / 100);
        body[n++] = (char)('0' + a / 10 % 10);
        body[n++] = (char)('0' + a % 10);
    }
    field(s, sp, prefix, 0, body, n);
}

