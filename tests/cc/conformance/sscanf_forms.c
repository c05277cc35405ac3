/* sscanf: integers of every length and base, floats, strings, scansets, %c, %n,
 * suppression, widths, literal matching, and the return value on failure and EOF. */
#include <stdio.h>

int main(void) {
    int a, b, n;
    unsigned u;
    long l;
    long long ll;
    short sh;
    signed char hh;
    unsigned x, o;
    printf("%d ", sscanf("12 -34 4000000000", "%d %d %u", &a, &b, &u));
    printf("%d %d %u\n", a, b, u);
    printf("%d ", sscanf("0x1F 017 -0 99", "%i %i %i %i", &a, &b, &n, &x));
    printf("%d %d %d %u\n", a, b, n, x);
    printf("%d ", sscanf("ff 777 123456789012345 -2 200", "%x %o %lld %hd %hhd", &x, &o, &ll,
                         &sh, &hh));
    printf("%x %o %lld %d %d\n", x, o, ll, sh, hh);
    float f;
    double d, e;
    printf("%d ", sscanf("3.25 -1e-3 0x1.8p1", "%f %lf %lf", &f, &d, &e));
    printf("%g %g %g\n", f, d, e);
    printf("%d ", sscanf("inf nan 1e400", "%lf %lf %lf", &d, &e, (double *)&ll));
    printf("%g %d\n", d, e != e);
    char s1[16], s2[16], s3[16];
    printf("%d ", sscanf("hello world, again", "%s %[^,], %s", s1, s2, s3));
    printf("%s|%s|%s\n", s1, s2, s3);
    printf("%d ", sscanf("abc123def", "%[a-z]%d%3c", s1, &a, s2));
    s2[3] = 0;
    printf("%s %d %s\n", s1, a, s2);
    printf("%d ", sscanf("12345678", "%3d%2d%d", &a, &b, &n));
    printf("%d %d %d\n", a, b, n);
    printf("%d ", sscanf("key = value", "%s = %s%n", s1, s2, &n));
    printf("%s %s %d\n", s1, s2, n);
    printf("%d ", sscanf("1,2,3", "%d,%*d,%d", &a, &b));
    printf("%d %d\n", a, b);
    printf("%d ", sscanf("100%", "%d%%", &a));
    printf("%d\n", a);
    printf("%d %d %d %d\n", sscanf("", "%d", &a), sscanf("   ", "%d", &a),
           sscanf("x", "%d", &a), sscanf("5 x", "%d %d", &a, &b));
    printf("%d ", sscanf("  A", " %c", s1));
    printf("%c\n", s1[0]);
    printf("%d ", sscanf("-2147483648 2147483647", "%ld %ld", &l, (long *)&a));
    printf("%ld %d\n", l, a);
    return 0;
}
