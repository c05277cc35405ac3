/* fmod, remainder, remquo: exact, by long division of the integer mantissas. */
#include "math_impl.h"

/* |x| = mx * 2^ex with mx a 53-bit integer (top bit 52 set); x finite, non-zero. */
static uint64_t split(double x, int *ex) {
    uint64_t u = asuint64(x) & ~(1ull << 63);
    int e = (int)(u >> 52);
    uint64_t m = u & ((1ull << 52) - 1);
    if (e == 0) {
        e = 1;
        while (!(m >> 52)) {
            m <<= 1;
            e--;
        }
    } else {
        m |= 1ull << 52;
    }
    *ex = e;
    return m;
}

/* mx * 2^e (mx < 2^53, e the biased exponent of bit 52) as a double. */
static double join(uint64_t m, int e) {
    if (m == 0)
        return 0.0;
    while (!(m >> 52)) {
        m <<= 1;
        e--;
    }
    if (e <= 0)                                /* subnormal: exact, bits only shift out as 0 */
        return asdouble(m >> (1 - e));
    return asdouble((m & ((1ull << 52) - 1)) | ((uint64_t)e << 52));
}

/* |x| mod |y| (the quotient truncated); *quo gets the quotient's low 31 bits. */
static double remainder_bits(double x, double y, unsigned *quo) {
    int ex, ey;
    uint64_t mx = split(x, &ex), my = split(y, &ey);
    unsigned q = 0;
    if (ex < ey || (ex == ey && mx < my)) {
        *quo = 0;
        return fabs(x);
    }
    for (; ex > ey; ex--) {
        q <<= 1;
        if (mx >= my) {
            mx -= my;
            q |= 1;
        }
        mx <<= 1;
    }
    q <<= 1;
    if (mx >= my) {
        mx -= my;
        q |= 1;
    }
    *quo = q & 0x7FFFFFFF;
    return join(mx, ey);
}

double fmod(double x, double y) {
    if (isnan(x) || isnan(y))
        return x + y;
    if (isinf(x) || y == 0)
        return __hsx_math_domain();
    if (x == 0 || isinf(y))
        return x;
    unsigned q;
    return copysign(remainder_bits(x, y, &q), x);
}

/* x - n y with n the nearest integer to x / y (ties to even); n's low bits in *quo. */
double remquo(double x, double y, int *quo) {
    *quo = 0;
    if (isnan(x) || isnan(y))
        return x + y;
    if (isinf(x) || y == 0)
        return __hsx_math_domain();
    if (isinf(y))
        return x;
    if (x == 0)
        return x;
    unsigned q;
    double r = remainder_bits(x, y, &q);
    double ay = fabs(y);
    if (r > ay - r || (r == ay - r && (q & 1))) {   /* beyond half of |y|: round up */
        r -= ay;
        q++;
    }
    int n = (int)(q & 0x7FFFFFFF);
    *quo = signbit(x) != signbit(y) ? -n : n;
    return signbit(x) ? -r : r;
}

double remainder(double x, double y) {
    int q;
    return remquo(x, y, &q);
}

float fmodf(float x, float y) { return (float)fmod(x, y); }
float remainderf(float x, float y) { return (float)remainder(x, y); }
float remquof(float x, float y, int *quo) { return (float)remquo(x, y, quo); }
