"""`float`, `double` and 64-bit division compiled to the VM's instructions give exactly
what the soft-float library gives (the `--soft-float` build), bit for bit, on edge
values: NaN, infinities, signed zeros, subnormals, overflow, every compare predicate,
every conversion; and the same as gcc on the host where C defines the result."""
from __future__ import annotations

from cckit import run_image

from hsx.toolchain.cc.driver import Options, build_c

SOURCE = r"""
#include <stdio.h>
#include <stdint.h>
#include <string.h>
static uint32_t fb(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static uint64_t db(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }
static float mkf(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static double mkd(uint64_t u) { double d; memcpy(&d, &u, 8); return d; }
volatile uint32_t F[] = { 0x00000000u, 0x80000000u, 0x3F800000u, 0xBFC00000u, 0x7F7FFFFFu,
    0x00000001u, 0x007FFFFFu, 0x7F800000u, 0xFF800000u, 0x7FC00000u, 0x4B800001u, 0xCF000000u,
    0x4F800000u, 0x3EAAAAABu };
volatile uint64_t D[] = { 0ull, 0x8000000000000000ull, 0x3FF0000000000000ull,
    0xC00C000000000000ull, 0x7FEFFFFFFFFFFFFFull, 1ull, 0x7FF0000000000000ull,
    0xFFF0000000000000ull, 0x7FF8000000000000ull, 0x41DFFFFFFFC00000ull,
    0xC3E0000000000000ull, 0x43F0000000000000ull, 0x3FD5555555555555ull };
volatile int64_t L[] = { 0, 1, -1, 7, -7, 1000000007LL, -9223372036854775807LL - 1,
    9223372036854775807LL, 123456789012345LL, -98765432109LL };
int main(void) {
    unsigned nf = sizeof F / sizeof F[0], nd = sizeof D / sizeof D[0], nl = sizeof L / sizeof L[0];
    for (unsigned i = 0; i < nf; i++) {
        float a = mkf(F[i]);
        printf("f%u %08x %08x %d %u %lld %llu %016llx\n", i, fb(a * 3.0f), fb(a / 7.0f),
               (int)a, (unsigned)a, (long long)a, (unsigned long long)a, db((double)a));
        for (unsigned j = 0; j < nf; j++) {
            float b = mkf(F[j]);
            printf(" %08x %08x %d%d%d%d%d%d%d%d%d%d%d%d", fb(a + b), fb(a - b), a == b, a != b,
                   a < b, a <= b, a > b, a >= b, !(a < b), !(a <= b), !(a > b), !(a >= b),
                   !(a == b) && !(a != b), a == a);
        }
        printf("\n");
    }
    for (unsigned i = 0; i < nd; i++) {
        double a = mkd(D[i]);
        printf("d%u %016llx %016llx %d %u %lld %llu %08x\n", i, db(a * 3.0), db(a / 7.0),
               (int)a, (unsigned)a, (long long)a, (unsigned long long)a, fb((float)a));
        for (unsigned j = 0; j < nd; j++) {
            double b = mkd(D[j]);
            printf(" %016llx %016llx %d%d%d%d", db(a + b), db(a * b), a < b, a >= b,
                   !(a > b), a != b);
        }
        printf("\n");
    }
    for (unsigned i = 0; i < nl; i++) {
        int64_t a = L[i];
        printf("l%u %08x %016llx %08x %016llx", i, fb((float)a), db((double)a),
               fb((float)(uint64_t)a), db((double)(uint64_t)a));
        for (unsigned j = 0; j < nl; j++) {
            int64_t b = L[j];
            if (b == 0 || (a == -9223372036854775807LL - 1 && b == -1)) continue;
            printf(" %lld %lld %llu %llu", a / b, a % b, (uint64_t)a / (uint64_t)b,
                   (uint64_t)a % (uint64_t)b);
        }
        printf("\n");
    }
    return 0;
}
"""


def output(tmp_path, soft: bool, opt: int) -> str:
    path = tmp_path / f"fpu{int(soft)}{opt}.c"
    path.write_text(SOURCE)
    result, _ = build_c([str(path)], Options(opt=opt, soft_float=soft), f"fpu{int(soft)}")
    out, status = run_image(result.image)
    assert status == 0
    return out.decode()


def test_hardware_float_matches_the_soft_float_library(tmp_path):
    for opt in (0, 2):
        hard, soft = output(tmp_path, False, opt), output(tmp_path, True, opt)
        assert hard.count("\n") == 2 * 14 + 2 * 13 + 10
        assert hard == soft, f"-O{opt}"


def test_the_hardware_build_uses_the_instructions(tmp_path):
    from hsx.toolchain.cc.driver import compile_c_file
    path = tmp_path / "ops.c"
    path.write_text("double f(double a, double b) { return a * b + a / b; }\n"
                    "long long g(long long a, long long b) { return a / b; }\n"
                    "long long m(long long a, long long b) { return a % b; }\n"
                    "int h(float a, float b) { return a < b; }\n")
    hard = compile_c_file(str(path), Options(opt=2)).mvasm
    soft = compile_c_file(str(path), Options(opt=2, soft_float=True)).mvasm
    for mnemonic in ("DMUL", "DDIV", "DADD", "DIV64", "REM64", "FCMPS"):
        assert mnemonic in hard and mnemonic not in soft
    assert "__muldf3" in soft and "__muldf3" not in hard
