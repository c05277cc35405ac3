/* strtod/strtof/atof: correctly rounded decimal and hexadecimal input (halfway cases,
 * many digits, subnormals, overflow), special values and end pointers. */
#include <stdio.h>
#include <stdlib.h>
#include <errno.h>

static const char *inputs[] = {
    "0", "-0", "1", "0.1", "1e23", "8.98846567431158e307", "2.2250738585072011e-308",
    "2.2250738585072012e-308", "4.9406564584124654e-324", "2.4703282292062327e-324",
    "2.4703282292062328e-324", "1.7976931348623157e308", "1.7976931348623158e308",
    "1.7976931348623159e308", "9007199254740993", "9007199254740992.5", "123456789012345678901234567890",
    "0.000000000000000000000000000000000000000000001", "3.14159265358979323846264338327950288",
    "1e-400", "1e400", "0x1p-1074", "0x1.fffffffffffff8p1023", "0x1.00000000000008p0",
    "0x1.00000000000018p0", "0X.8P1", "0x1p+1024", "inf", "-Infinity", "nan", "  +12.5e+1x",
    "5e-324", ".5", "5.", "1e", "1e+", "0x", "-.e1", "100000000000000016777215",
    "7.038531e-26", "1.00000005960464477539062499", "179769313486231580793728971405301e276",
};

int main(void) {
    for (unsigned i = 0; i < sizeof inputs / sizeof inputs[0]; i++) {
        char *end;
        errno = 0;
        double d = strtod(inputs[i], &end);
        int range = errno == ERANGE;
        errno = 0;
        float f = strtof(inputs[i], NULL);
        printf("%-40s %a %a %d %d %d\n", inputs[i], d, (double)f, (int)(end - inputs[i]),
               range, errno == ERANGE);
    }
    printf("%g %g\n", atof("2.5"), atof("junk"));
    /* trailing zeros of short numbers (the fast path): "10" is ten, "1.50" one and a half */
    static const char *const zeros[] = { "10", "100 % 7", "1.50", "2.500", "1000000", "0.10",
                                         "120e-1", "100.0", "0.000", "20e2", "0.250", "10 - 1" };
    for (unsigned i = 0; i < sizeof zeros / sizeof zeros[0]; i++) {
        char *end;
        double d = strtod(zeros[i], &end);
        printf("%s: %a %a [%s]\n", zeros[i], d, (double)strtof(zeros[i], NULL), end);
    }
    double x, y;
    printf("%d", sscanf("10 20.50", "%lf %lf", &x, &y));
    printf(" %g %g\n", x, y);
    return 0;
}
