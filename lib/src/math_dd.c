/* Double-double arithmetic (math_impl.h): sums and products carried as hi + lo. */
#include "math_impl.h"

dd_t two_prod(double a, double b) {
    double p = a * b;
    double ca = 134217729.0 * a, cb = 134217729.0 * b;
    double ah = ca - (ca - a), al = a - ah;
    double bh = cb - (cb - b), bl = b - bh;
    return dd(p, ((ah * bh - p) + ah * bl + al * bh) + al * bl);
}

dd_t dd_add(dd_t a, dd_t b) {
    dd_t s = two_sum(a.hi, b.hi);
    return fast_two_sum(s.hi, s.lo + a.lo + b.lo);
}

dd_t dd_add_d(dd_t a, double b) {
    dd_t s = two_sum(a.hi, b);
    return fast_two_sum(s.hi, s.lo + a.lo);
}

dd_t dd_mul(dd_t a, dd_t b) {
    dd_t p = two_prod(a.hi, b.hi);
    return fast_two_sum(p.hi, p.lo + a.hi * b.lo + a.lo * b.hi);
}

dd_t dd_mul_d(dd_t a, double b) {
    dd_t p = two_prod(a.hi, b);
    return fast_two_sum(p.hi, p.lo + a.lo * b);
}

dd_t dd_div(dd_t a, dd_t b) {
    double q = a.hi / b.hi;
    dd_t p = two_prod(q, b.hi);
    double r = ((a.hi - p.hi) - p.lo + a.lo - q * b.lo) / b.hi;
    return fast_two_sum(q, r);
}

