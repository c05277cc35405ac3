/* C11: _Generic, _Static_assert, anonymous structs and unions, _Alignas/_Alignof,
 * _Noreturn, u8/u/U/L string and character literals, char16_t/char32_t. */
#include <stdio.h>
#include <assert.h>
#include <stddef.h>

#define type_name(x) _Generic((x), int: "int", unsigned: "unsigned", long long: "long long", \
    double: "double", float: "float", char *: "char *", const char *: "const char *", \
    default: "other")
#define abs_of(x) _Generic((x), double: fabs_d, int: abs_i, default: abs_i)(x)
static double fabs_d(double x) { return x < 0 ? -x : x; }
static int abs_i(int x) { return x < 0 ? -x : x; }

static_assert(sizeof(int) == 4, "int is 32 bits");
_Static_assert(_Alignof(double) == 8, "double is 8-aligned");

struct variant {
    int kind;
    union {
        int i;
        struct { short lo, hi; };
        double d;
    };
};

struct aligned { char c; _Alignas(8) int x; };

static _Noreturn void finish(int code) {
    printf("finish %d\n", code);
    for (;;)
        __builtin_trap();
}

int main(void) {
    char buf[4] = "ab";
    printf("%s %s %s %s %s %s %s\n", type_name(1), type_name(1u), type_name(1LL),
           type_name(1.0), type_name(1.0f), type_name(buf + 0), type_name("lit" + 0));
    printf("%.1f %d\n", abs_of(-2.5), abs_of(-3));
    struct variant v = { .kind = 1, .i = 0x00020001 };
    printf("%d %d %d\n", v.kind, v.lo, v.hi);
    v.d = 1.5;
    printf("%.1f\n", v.d);
    printf("%d %d\n", (int)offsetof(struct aligned, x), (int)_Alignof(struct aligned));
    const char *u8s = u8"utf8";
    const unsigned short *u16 = u"wide16";
    const unsigned *u32 = U"wide32";
    const int *wl = L"long";
    printf("%s %d %u %d %d\n", u8s, u16[4], u32[5], wl[1], (int)sizeof(U"ab"));
    printf("%d %d %d\n", u'x', (int)U'y', (int)L'z');
    if (v.kind == 2)
        finish(1);
    printf("done\n");
    return 0;
}
