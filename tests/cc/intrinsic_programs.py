"""C programs that make clang emit the integer, memory and float-class intrinsics, for
every width from i8 to i64, over tables of edge and random values; each prints every
result.  Built by the host's gcc (where the clang builtins are replaced by portable C
under `#ifndef __clang__`), they print what the intrinsics must compute.

`FAMILIES[name]` is (C source, the `llvm.*` names clang must emit for it at some -O).
"""
from __future__ import annotations

import random

WIDTHS = (8, 16, 32, 64)


def _values(bits: int, signed: bool, count: int = 6) -> list[int]:
    """Edge values of the type and a few random ones (the same every run)."""
    lo, hi = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (0, (1 << bits) - 1)
    edges = [0, 1, 2, lo, hi, lo + 1, hi - 1, -1 if signed else hi // 2 + 1,
             (0x5555555555555555 & ((1 << bits) - 1)) + (lo if signed else 0)]
    rng = random.Random(bits * 2 + signed)
    picked = edges + [rng.randint(lo, hi) for _ in range(count)]
    return list(dict.fromkeys(min(max(v, lo), hi) for v in picked))


def _literal(value: int, bits: int, signed: bool) -> str:
    if signed and value == -(1 << (bits - 1)):
        return f"(-{(1 << (bits - 1)) - 1}LL - 1)"
    return f"{value}{'LL' if signed else 'ULL'}"


def _tables() -> str:
    """`s8v[]`, `u8v[]`, ... `s64v[]`, `u64v[]`: the values, as globals the optimizer
    cannot assume constant."""
    lines = []
    for bits in WIDTHS:
        for signed in (True, False):
            vals = _values(bits, signed)
            name = f"{'s' if signed else 'u'}{bits}v"
            ctype = f"{'' if signed else 'u'}int{bits}_t"
            lines.append(f"{ctype} {name}[] = {{{', '.join(_literal(v, bits, signed) for v in vals)}}};")
    return "\n".join(lines)


PRELUDE = """#include <stdint.h>
#include <stdio.h>
#include <string.h>
#define N(a) (int)(sizeof a / sizeof a[0])
#define NOINLINE __attribute__((noinline))
"""

# Each family: C code using the builtins (clang) with portable replacements (gcc), and an
# instantiation per width W: FOR(W, s, u) expands to W-bit signed and unsigned variants.
MINMAX = """
#ifndef __clang__
#define __builtin_elementwise_min(a, b) ((a) < (b) ? (a) : (b))
#define __builtin_elementwise_max(a, b) ((a) > (b) ? (a) : (b))
#define __builtin_elementwise_abs(a) ((__typeof__(a))((a) < 0 ? -(a) : (a)))
#endif
#define FAMILY(W)                                                                       \\
NOINLINE void minmax##W(void) {                                                         \\
    for (int i = 0; i < N(s##W##v); i++)                                                \\
        for (int j = 0; j < N(s##W##v); j++) {                                          \\
            int##W##_t a = s##W##v[i], b = s##W##v[j];                                  \\
            printf("s%d %lld %lld: min %lld max %lld cmp %d\\n", W, (long long)a,       \\
                   (long long)b, (long long)__builtin_elementwise_min(a, b),            \\
                   (long long)__builtin_elementwise_max(a, b), (a > b) - (a < b));      \\
        }                                                                               \\
    for (int i = 0; i < N(u##W##v); i++)                                                \\
        for (int j = 0; j < N(u##W##v); j++) {                                          \\
            uint##W##_t a = u##W##v[i], b = u##W##v[j];                                 \\
            printf("u%d %llu %llu: min %llu max %llu cmp %d\\n", W,                     \\
                   (unsigned long long)a, (unsigned long long)b,                        \\
                   (unsigned long long)__builtin_elementwise_min(a, b),                 \\
                   (unsigned long long)__builtin_elementwise_max(a, b),                 \\
                   (a > b) - (a < b));                                                  \\
        }                                                                               \\
    for (int i = 0; i < N(s##W##v); i++) {                                              \\
        int##W##_t a = s##W##v[i];                                                      \\
        printf("abs%d %lld: %lld\\n", W, (long long)a,                                  \\
               (long long)__builtin_elementwise_abs(a));                                \\
    }                                                                                   \\
}
"""

BITS = """
#ifndef __clang__
#define COUNT_LEADING(x, w) ({ __typeof__(x) v_ = (x); int n_ = 0;                      \\
    while (n_ < (w) && !((v_ >> ((w) - 1 - n_)) & 1)) n_++; n_; })
#define COUNT_TRAILING(x, w) ({ __typeof__(x) v_ = (x); int n_ = 0;                     \\
    while (n_ < (w) && !((v_ >> n_) & 1)) n_++; n_; })
#define __builtin_clzg(x, z) COUNT_LEADING(x, (int)(8 * sizeof(x)))
#define __builtin_ctzg(x, z) COUNT_TRAILING(x, (int)(8 * sizeof(x)))
#define __builtin_popcountg(x) __builtin_popcountll((unsigned long long)(x))
#define REVERSE(x, w) ({ __typeof__(x) v_ = (x), r_ = 0;                                \\
    for (int k_ = 0; k_ < (w); k_++) r_ |= (__typeof__(x))(((v_ >> k_) & 1) << ((w) - 1 - k_)); r_; })
#define __builtin_bitreverse8(x) REVERSE((uint8_t)(x), 8)
#define __builtin_bitreverse16(x) REVERSE((uint16_t)(x), 16)
#define __builtin_bitreverse32(x) REVERSE((uint32_t)(x), 32)
#define __builtin_bitreverse64(x) REVERSE((uint64_t)(x), 64)
#endif
#define __builtin_bswap8(x) (x)
#define FAMILY(W)                                                                       \\
NOINLINE void bits##W(void) {                                                           \\
    for (int i = 0; i < N(u##W##v); i++) {                                              \\
        uint##W##_t a = u##W##v[i];                                                     \\
        printf("%d %llu: clz %d ctz %d pop %d bswap %llu rev %llu\\n", W,               \\
               (unsigned long long)a, __builtin_clzg(a, W), __builtin_ctzg(a, W),       \\
               __builtin_popcountg(a), (unsigned long long)__builtin_bswap##W(a),       \\
               (unsigned long long)__builtin_bitreverse##W(a));                         \\
    }                                                                                   \\
}
"""

FUNNEL = """
#ifndef __clang__
#define FUNNEL_L(a, b, n, w) ((n) % (w) ? (__typeof__(a))(((a) << ((n) % (w))) | ((b) >> ((w) - (n) % (w)))) : (a))
#define FUNNEL_R(a, b, n, w) ((n) % (w) ? (__typeof__(a))(((b) >> ((n) % (w))) | ((a) << ((w) - (n) % (w)))) : (b))
#define __builtin_elementwise_fshl(a, b, n) FUNNEL_L(a, b, n, (int)(8 * sizeof(a)))
#define __builtin_elementwise_fshr(a, b, n) FUNNEL_R(a, b, n, (int)(8 * sizeof(a)))
#endif
uint64_t amounts[] = {0, 1, 3, 7, 8, 15, 16, 31, 32, 33, 63, 64, 70};
#define FAMILY(W)                                                                       \\
NOINLINE void funnel##W(void) {                                                         \\
    for (int i = 0; i < N(u##W##v); i++)                                                \\
        for (int k = 0; k < N(amounts); k++) {                                          \\
            uint##W##_t a = u##W##v[i], b = u##W##v[(i + 3) % N(u##W##v)];              \\
            uint##W##_t n = (uint##W##_t)amounts[k];                                    \\
            printf("%d %llu %llu %llu: fshl %llu fshr %llu rotl %llu rotr %llu\\n", W,  \\
                   (unsigned long long)a, (unsigned long long)b, (unsigned long long)n, \\
                   (unsigned long long)__builtin_elementwise_fshl(a, b, n),             \\
                   (unsigned long long)__builtin_elementwise_fshr(a, b, n),             \\
                   (unsigned long long)__builtin_elementwise_fshl(a, a, n),             \\
                   (unsigned long long)__builtin_elementwise_fshr(a, a, n));            \\
        }                                                                               \\
}
"""

OVERFLOW = """
#define CHECK(T, C, F, op, a, b) do { T r_; int o_ = __builtin_##op##_overflow(a, b, &r_); \\
    printf(" %s " F "/%d", #op, (C)r_, o_); } while (0)
#define FAMILY(W)                                                                       \\
NOINLINE void overflow##W(void) {                                                       \\
    for (int i = 0; i < N(s##W##v); i++)                                                \\
        for (int j = 0; j < N(s##W##v); j++) {                                          \\
            int##W##_t a = s##W##v[i], b = s##W##v[j];                                  \\
            printf("s%d %lld %lld:", W, (long long)a, (long long)b);                    \\
            CHECK(int##W##_t, long long, "%lld", add, a, b);                            \\
            CHECK(int##W##_t, long long, "%lld", sub, a, b);                            \\
            CHECK(int##W##_t, long long, "%lld", mul, a, b); printf("\\n");             \\
        }                                                                               \\
    for (int i = 0; i < N(u##W##v); i++)                                                \\
        for (int j = 0; j < N(u##W##v); j++) {                                          \\
            uint##W##_t a = u##W##v[i], b = u##W##v[j];                                 \\
            printf("u%d %llu %llu:", W, (unsigned long long)a, (unsigned long long)b);  \\
            CHECK(uint##W##_t, unsigned long long, "%llu", add, a, b);                  \\
            CHECK(uint##W##_t, unsigned long long, "%llu", sub, a, b);                  \\
            CHECK(uint##W##_t, unsigned long long, "%llu", mul, a, b); printf("\\n");   \\
        }                                                                               \\
}
"""

SATURATING = """
#ifndef __clang__
#define SAT(op, a, b) ({ __typeof__(a) r_; __typeof__(a) one_ = 1, zero_ = 0;          \\
    int signed_ = (__typeof__(a))-1 < zero_;                                            \\
    __typeof__(a) max_ = signed_ ? (__typeof__(a))((one_ << (8 * sizeof(a) - 2)) - 1 + (one_ << (8 * sizeof(a) - 2))) : (__typeof__(a))-1; \\
    __typeof__(a) min_ = signed_ ? (__typeof__(a))(-max_ - 1) : zero_;                  \\
    if (__builtin_##op##_overflow(a, b, &r_))                                           \\
        r_ = signed_ ? ((a) < 0 ? min_ : max_) : (#op[0] == 'a' ? max_ : min_);         \\
    r_; })
#define __builtin_elementwise_add_sat(a, b) SAT(add, a, b)
#define __builtin_elementwise_sub_sat(a, b) SAT(sub, a, b)
#endif
#define FAMILY(W)                                                                       \\
NOINLINE void saturating##W(void) {                                                     \\
    for (int i = 0; i < N(s##W##v); i++)                                                \\
        for (int j = 0; j < N(s##W##v); j++) {                                          \\
            int##W##_t a = s##W##v[i], b = s##W##v[j];                                  \\
            printf("s%d %lld %lld: add %lld sub %lld\\n", W, (long long)a, (long long)b, \\
                   (long long)__builtin_elementwise_add_sat(a, b),                      \\
                   (long long)__builtin_elementwise_sub_sat(a, b));                     \\
        }                                                                               \\
    for (int i = 0; i < N(u##W##v); i++)                                                \\
        for (int j = 0; j < N(u##W##v); j++) {                                          \\
            uint##W##_t a = u##W##v[i], b = u##W##v[j];                                 \\
            printf("u%d %llu %llu: add %llu sub %llu\\n", W, (unsigned long long)a,     \\
                   (unsigned long long)b,                                               \\
                   (unsigned long long)__builtin_elementwise_add_sat(a, b),             \\
                   (unsigned long long)__builtin_elementwise_sub_sat(a, b));            \\
        }                                                                               \\
}
"""


def _family(body: str, name: str) -> str:
    calls = "\n".join(f"    {name}{w}();" for w in WIDTHS)
    uses = "\n".join(f"FAMILY({w})" for w in WIDTHS)
    return f"{PRELUDE}{_tables()}\n{body}\n{uses}\n\nint main(void)\n{{\n{calls}\n    return 0;\n}}\n"


MEMORY = PRELUDE + """
unsigned char src[300], dst[300];
int lengths[] = {0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 100, 255};

static unsigned hash(const unsigned char *p, int n)
{
    unsigned h = 2166136261u;
    for (int i = 0; i < n; i++)
        h = (h ^ p[i]) * 16777619u;
    return h;
}

static void reset(void)
{
    for (int i = 0; i < 300; i++) {
        src[i] = (unsigned char)(i * 7 + 3);
        dst[i] = (unsigned char)(255 - i);
    }
}

NOINLINE void copy(unsigned char *d, const unsigned char *s, int n) { __builtin_memcpy(d, s, n); }
NOINLINE void move(unsigned char *d, const unsigned char *s, int n) { __builtin_memmove(d, s, n); }
NOINLINE void fill(unsigned char *d, int c, int n) { __builtin_memset(d, c, n); }

#define CONSTANT(n)                                                                     \\
    for (int at = 0; at < 4; at++) {                                                    \\
        reset(); __builtin_memcpy(dst + at, src + 3 - at, n);                                     \\
        printf("memcpy %d at %d: %08x\\n", n, at, hash(dst, 300));                      \\
        reset(); __builtin_memmove(src + at + 1, src + at, n);                                    \\
        printf("memmove up %d at %d: %08x\\n", n, at, hash(src, 300));                  \\
        reset(); __builtin_memmove(src + at, src + at + 2, n);                                    \\
        printf("memmove down %d at %d: %08x\\n", n, at, hash(src, 300));                \\
        reset(); __builtin_memset(dst + at, 0xA5, n);                                             \\
        printf("memset %d at %d: %08x\\n", n, at, hash(dst, 300));                      \\
        reset(); __builtin_memset(dst + at, 0, n);                                                \\
        printf("memset0 %d at %d: %08x\\n", n, at, hash(dst, 300));                     \\
    }

int main(void)
{
    CONSTANT(0) CONSTANT(1) CONSTANT(2) CONSTANT(3) CONSTANT(4) CONSTANT(5) CONSTANT(7)
    CONSTANT(8) CONSTANT(12) CONSTANT(16) CONSTANT(31) CONSTANT(32) CONSTANT(33)
    CONSTANT(64) CONSTANT(100)
    for (int k = 0; k < N(lengths); k++)
        for (int at = 0; at < 4; at++) {
            int n = lengths[k];
            reset(); copy(dst + at, src + 1, n);
            printf("copy %d at %d: %08x\\n", n, at, hash(dst, 300));
            reset(); move(src + at + 5, src + at, n);
            printf("move up %d at %d: %08x\\n", n, at, hash(src, 300));
            reset(); move(src + at, src + at + 5, n);
            printf("move down %d at %d: %08x\\n", n, at, hash(src, 300));
            reset(); fill(dst + at, n * 13 + at, n);
            printf("fill %d at %d: %08x\\n", n, at, hash(dst, 300));
        }
    return 0;
}
"""

FPCLASS = PRELUDE + """
#ifndef __clang__
static int classify(uint64_t sign, uint64_t exp, uint64_t mant, uint64_t max_exp, uint64_t quiet)
{
    if (exp == max_exp)
        return mant == 0 ? (sign ? 1 << 2 : 1 << 9) : (mant & quiet ? 1 << 1 : 1 << 0);
    if (exp == 0)
        return mant == 0 ? (sign ? 1 << 5 : 1 << 6) : (sign ? 1 << 4 : 1 << 7);
    return sign ? 1 << 3 : 1 << 8;
}
static int fclass(float x) { uint32_t u; __builtin_memcpy(&u, &x, 4);
    return classify(u >> 31, (u >> 23) & 0xFF, u & 0x7FFFFF, 0xFF, 1u << 22); }
static int dclass(double x) { uint64_t u; __builtin_memcpy(&u, &x, 8);
    return classify(u >> 63, (u >> 52) & 0x7FF, u & 0xFFFFFFFFFFFFFull, 0x7FF, 1ull << 51); }
#define __builtin_isfpclass(x, m) (!!((sizeof(x) == 4 ? fclass(x) : dclass(x)) & (m)))
#endif
uint32_t fbits[] = {0x00000000, 0x80000000, 0x00000001, 0x807FFFFF, 0x3F800000, 0xC2F60000,
                    0x7F800000, 0xFF800000, 0x7FC00000, 0x7F800001, 0xFFC00001, 0x00800000};
uint64_t dbits[] = {0, 0x8000000000000000ull, 1, 0x800FFFFFFFFFFFFFull, 0x3FF0000000000000ull,
                    0xC05EC00000000000ull, 0x7FF0000000000000ull, 0xFFF0000000000000ull,
                    0x7FF8000000000000ull, 0x7FF0000000000001ull, 0xFFF8000000000001ull,
                    0x0010000000000000ull};
#define MASKS(T, x, name)                                                               \\
    printf("%s:", name);                                                                \\
    printf(" %d", __builtin_isfpclass(x, 0x001)); printf(" %d", __builtin_isfpclass(x, 0x002)); \\
    printf(" %d", __builtin_isfpclass(x, 0x003)); printf(" %d", __builtin_isfpclass(x, 0x004)); \\
    printf(" %d", __builtin_isfpclass(x, 0x008)); printf(" %d", __builtin_isfpclass(x, 0x010)); \\
    printf(" %d", __builtin_isfpclass(x, 0x020)); printf(" %d", __builtin_isfpclass(x, 0x040)); \\
    printf(" %d", __builtin_isfpclass(x, 0x080)); printf(" %d", __builtin_isfpclass(x, 0x100)); \\
    printf(" %d", __builtin_isfpclass(x, 0x200)); printf(" %d", __builtin_isfpclass(x, 0x204)); \\
    printf(" %d", __builtin_isfpclass(x, 0x1F8)); printf(" %d", __builtin_isfpclass(x, 0x060)); \\
    printf(" %d", __builtin_isfpclass(x, 0x3FC)); printf(" %d", __builtin_isfpclass(x, 0x090)); \\
    printf("\\n")

NOINLINE void floats(void)
{
    for (int i = 0; i < N(fbits); i++) {
        float x;
        __builtin_memcpy(&x, &fbits[i], 4);
        MASKS(float, x, "f");
    }
}

NOINLINE void doubles(void)
{
    for (int i = 0; i < N(dbits); i++) {
        double x;
        __builtin_memcpy(&x, &dbits[i], 8);
        MASKS(double, x, "d");
    }
}

int main(void)
{
    floats();
    doubles();
    return 0;
}
"""


def _names(ops: tuple[str, ...], widths=WIDTHS) -> set[str]:
    return {f"llvm.{op}.i{w}" for op in ops for w in widths}


FAMILIES: dict[str, tuple[str, set[str]]] = {
    "minmax": (_family(MINMAX, "minmax"),
               _names(("smin", "smax", "umin", "umax", "abs"))
               | {f"llvm.{op}.i32.i{w}" for op in ("scmp", "ucmp") for w in (32, 64)}),
    "bits": (_family(BITS, "bits"),
             _names(("ctlz", "cttz", "ctpop", "bitreverse")) | _names(("bswap",), (16, 32, 64))),
    "funnel": (_family(FUNNEL, "funnel"), _names(("fshl", "fshr"))),
    "overflow": (_family(OVERFLOW, "overflow"),
                 _names(tuple(f"{s}{op}.with.overflow" for s in "su"
                              for op in ("add", "sub", "mul")))),
    "saturating": (_family(SATURATING, "saturating"),
                   _names(tuple(f"{s}{op}.sat" for s in "su" for op in ("add", "sub")))),
    "memory": (MEMORY, {"llvm.memcpy.p0.p0.i32", "llvm.memmove.p0.p0.i32",
                        "llvm.memset.p0.i32"}),
    "fpclass": (FPCLASS, {"llvm.is.fpclass.f32", "llvm.is.fpclass.f64"}),
}
