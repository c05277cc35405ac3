/* The runtime routines clang calls for complex multiplication and division
 * (__mulsc3 __muldc3 __divsc3 __divdc3): C11 Annex G's recovery of infinities from
 * NaN results for products, and for quotients Smith's algorithm with the scaling
 * libgcc uses, so quotients are the ones a gcc build computes.  Long double is
 * double here, so its routines are the double ones. */
#pragma STDC FP_CONTRACT OFF
#include <float.h>
#include <math.h>

/* +-1 for an infinity, +-0 otherwise (the sign kept): Annex G's "box" of a value. */
static double box(double v) { return copysign(isinf(v) ? 1.0 : 0.0, v); }
static double unnan(double v) { return isnan(v) ? copysign(0.0, v) : v; }

double _Complex __muldc3(double a, double b, double c, double d) {
    double ac = a * c, bd = b * d, ad = a * d, bc = b * c;
    double x = ac - bd, y = ad + bc;
    if (isnan(x) && isnan(y)) {
        int again = 0;
        if (isinf(a) || isinf(b)) {
            a = box(a), b = box(b), c = unnan(c), d = unnan(d);
            again = 1;
        }
        if (isinf(c) || isinf(d)) {
            c = box(c), d = box(d), a = unnan(a), b = unnan(b);
            again = 1;
        }
        if (!again && (isinf(ac) || isinf(bd) || isinf(ad) || isinf(bc))) {
            a = unnan(a), b = unnan(b), c = unnan(c), d = unnan(d);
            again = 1;
        }
        if (again) {
            x = INFINITY * (a * c - b * d);
            y = INFINITY * (a * d + b * c);
        }
    }
    return __builtin_complex(x, y);
}

/* In float, as the Annex G example: the same recovery in float arithmetic. */
float _Complex __mulsc3(float a, float b, float c, float d) {
    float ac = a * c, bd = b * d, ad = a * d, bc = b * c;
    float x = ac - bd, y = ad + bc;
    if (isnan(x) && isnan(y)) {
        double _Complex r = __muldc3(a, b, c, d);
        x = (float)__real__ r, y = (float)__imag__ r;
    }
    return __builtin_complex(x, y);
}

/* Annex G: a NaN quotient that should be an infinity or a zero. */
static double _Complex div_special(double a, double b, double c, double d, double x, double y) {
    if (c == 0.0 && d == 0.0 && (!isnan(a) || !isnan(b))) {
        x = copysign(INFINITY, c) * a;
        y = copysign(INFINITY, c) * b;
    } else if ((isinf(a) || isinf(b)) && isfinite(c) && isfinite(d)) {
        a = box(a), b = box(b);
        x = INFINITY * (a * c + b * d);
        y = INFINITY * (b * c - a * d);
    } else if ((isinf(c) || isinf(d)) && isfinite(a) && isfinite(b)) {
        c = box(c), d = box(d);
        x = 0.0 * (a * c + b * d);
        y = 0.0 * (b * c - a * d);
    }
    return __builtin_complex(x, y);
}

/* (a + bi) / (c + di) by Smith's ratio of the smaller to the larger of |c| and |d|,
 * the operands scaled away from overflow and underflow first, each expression as
 * libgcc writes it (so signs of zero agree too). */
double _Complex __divdc3(double a, double b, double c, double d) {
    const double big = DBL_MAX / 2, tiny = DBL_MIN, eps = DBL_EPSILON, up = 1 / DBL_EPSILON;
    double oa = a, ob = b, oc = c, od = d, x, y;
    int d_larger = fabs(c) < fabs(d);
    double large = d_larger ? fabs(d) : fabs(c);
    if (large >= big)
        a /= 2, b /= 2, c /= 2, d /= 2, large /= 2;
    if (large < eps ||
        (fabs(a) < tiny && fabs(b) < big * eps && large < big * eps) ||
        (fabs(b) < tiny && fabs(a) < big * eps && large < big * eps))
        a *= up, b *= up, c *= up, d *= up;
    if (d_larger) {
        double ratio = c / d, denom = c * ratio + d;
        if (fabs(ratio) > tiny) {
            x = (a * ratio + b) / denom;
            y = (b * ratio - a) / denom;
        } else {
            x = (c * (a / d) + b) / denom;
            y = (c * (b / d) - a) / denom;
        }
    } else {
        double ratio = d / c, denom = d * ratio + c;
        if (fabs(ratio) > tiny) {
            x = (b * ratio + a) / denom;
            y = (b - a * ratio) / denom;
        } else {
            x = (d * (b / c) + a) / denom;
            y = (b - d * (a / c)) / denom;
        }
    }
    if (isnan(x) && isnan(y))
        return div_special(oa, ob, oc, od, x, y);
    return __builtin_complex(x, y);
}

/* Float quotients are computed in double (no scaling needed) and rounded once more. */
float _Complex __divsc3(float a, float b, float c, float d) {
    double denom = (double)c * c + (double)d * d;
    double x = ((double)a * c + (double)b * d) / denom;
    double y = ((double)b * c - (double)a * d) / denom;
    if (isnan(x) && isnan(y)) {
        double _Complex r = div_special(a, b, c, d, x, y);
        x = __real__ r, y = __imag__ r;
    }
    return __builtin_complex((float)x, (float)y);
}
