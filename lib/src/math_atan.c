/* atan, atan2, asin, acos, all through atan(n / d) in dd: with q = n/d <= 1 (else
 * pi/2 - atan(d/n)) and c = j/64 the nearest table point, atan q = atan c + atan t,
 * t = (q - c) / (1 + q c), |t| <= 1/128, atan t by its series. */
#include "math_impl.h"

dd_t __hsx_atan_ratio(dd_t n, dd_t d) {
    int swap = n.hi > d.hi;
    if (swap) {
        dd_t t = n;
        n = d;
        d = t;
    }
    dd_t q = d.hi == 0 ? dd(0, 0) : dd_div(n, d);
    int j = (int)(q.hi * 64 + 0.5);
    double c = j / 64.0;
    dd_t num = dd_add_d(q, -c);
    dd_t den = dd_add_d(dd_mul_d(q, c), 1.0);
    dd_t t = dd_div(num, den);
    double x = t.hi, z = x * x;
    double tail = x * z * (-1.0 / 3 + z * (1.0 / 5 + z * (-1.0 / 7 + z * (1.0 / 9 -
                  z * (1.0 / 11)))));
    dd_t a = fast_two_sum(x, t.lo + tail);
    dd_t r = dd_add(dd_from(__hsx_atan_table[j]), a);
    if (swap)
        r = dd_add(dd_from(__hsx_pio2), dd_neg(r));
    return r;
}

double atan(double x) {
    if (isnan(x))
        return x + x;
    double a = fabs(x);
    if (a < 0x1p-27)
        return x;
    dd_t r;
    if (a > 0x1p60)
        r = dd_from(__hsx_pio2);
    else
        r = __hsx_atan_ratio(dd(a, 0), dd(1.0, 0));
    double v = r.hi + r.lo;
    return x < 0 ? -v : v;
}

double atan2(double y, double x) {
    if (isnan(x) || isnan(y))
        return x + y;
    double ay = fabs(y), ax = fabs(x);
    int left = signbit(x);                     /* x < 0 or x == -0 */
    dd_t a;
    if (y == 0) {
        a = left ? dd_from(__hsx_pi) : dd(0, 0);
    } else if (isinf(x) && isinf(y)) {
        a = dd_mul_d(dd_from(__hsx_pio2), left ? 1.5 : 0.5);
    } else if (isinf(x)) {
        a = left ? dd_from(__hsx_pi) : dd(0, 0);
    } else if (x == 0 || isinf(y)) {
        a = dd_from(__hsx_pio2);
    } else {
        int ex = ilogb(ax), ey = ilogb(ay);
        if (ey - ex > 60) {
            a = dd_from(__hsx_pio2);
        } else if (ex - ey > 60) {
            if (!left) {                       /* tiny: the quotient itself */
                double q = ay / ax;
                if (q == 0 || exponent_field(q) == 0)
                    errno = ERANGE;
                return y < 0 ? -q : q;
            }
            a = dd_from(__hsx_pi);
        } else {
            int s = -(ex > ey ? ex : ey);      /* scale both to about 1 */
            a = __hsx_atan_ratio(dd(ldexp(ay, s), 0), dd(ldexp(ax, s), 0));
            if (left)
                a = dd_add(dd_from(__hsx_pi), dd_neg(a));
        }
    }
    double v = a.hi + a.lo;
    return signbit(y) ? -v : v;
}

/* sqrt(1 - x^2) in dd, |x| <= 1. */
static dd_t cosine_of(double x) {
    dd_t sq = two_prod(x, x);
    return __hsx_sqrt_dd(dd_add(dd(1.0, 0), dd_neg(sq)));
}

double asin(double x) {
    if (isnan(x))
        return x + x;
    double a = fabs(x);
    if (a > 1)
        return __hsx_math_domain();
    if (a < 0x1p-26)
        return x;
    dd_t r = __hsx_atan_ratio(dd(a, 0), cosine_of(a));
    double v = r.hi + r.lo;
    return x < 0 ? -v : v;
}

double acos(double x) {
    if (isnan(x))
        return x + x;
    double a = fabs(x);
    if (a > 1)
        return __hsx_math_domain();
    dd_t r = __hsx_atan_ratio(cosine_of(a), dd(a, 0));
    if (x < 0)
        r = dd_add(dd_from(__hsx_pi), dd_neg(r));
    return r.hi + r.lo;
}

float atanf(float x) { return (float)atan(x); }
float atan2f(float y, float x) { return (float)atan2(y, x); }
float asinf(float x) { return (float)asin(x); }
float acosf(float x) { return (float)acos(x); }
