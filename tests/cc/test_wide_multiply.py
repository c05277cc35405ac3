"""C's 64 x 64 -> 128-bit multiplication written with 32-bit halves (yyjson's number
parsing, any bignum code): clang turns it into `mul i128` of two zero-extended 64-bit
values and a shift by 64, which the back end computes with MUL/MULHU word products.
The high and low halves of products of edge values match Python's integers."""
from __future__ import annotations

import pytest

from cckit import compile_and_run

PROGRAM = r"""
#include <stdio.h>
typedef unsigned long long u64;
typedef unsigned u32;

static u64 mul_high(u64 a, u64 b)           /* only the high half: clang's mulhi idiom */
{
    u32 a0 = (u32)a, a1 = (u32)(a >> 32), b0 = (u32)b, b1 = (u32)(b >> 32);
    u64 p00 = (u64)a0 * b0, p01 = (u64)a0 * b1, p10 = (u64)a1 * b0, p11 = (u64)a1 * b1;
    u64 m0 = p01 + (p00 >> 32);
    u64 m1 = p10 + (u32)m0;
    return p11 + (u32)(m0 >> 32) + (u32)(m1 >> 32);
}

static void mul_full(u64 a, u64 b, u64 *hi, u64 *lo)
{
    u32 a0 = (u32)a, a1 = (u32)(a >> 32), b0 = (u32)b, b1 = (u32)(b >> 32);
    u64 p00 = (u64)a0 * b0, p01 = (u64)a0 * b1, p10 = (u64)a1 * b0, p11 = (u64)a1 * b1;
    u64 m0 = p01 + (p00 >> 32);
    u64 m1 = p10 + (u32)m0;
    *hi = p11 + (u32)(m0 >> 32) + (u32)(m1 >> 32);
    *lo = ((u64)(u32)m1 << 32) | (u32)p00;
}

static volatile u64 values[] = {0, 1, 3, 0xFFFFFFFFull, 0x100000000ull, 0xDEADBEEFCAFEF00Dull,
                                0x8000000000000000ull, 0xFFFFFFFFFFFFFFFFull,
                                10000000000000000000ull, 0x123456789ull};

int main(void)
{
    unsigned n = sizeof values / sizeof values[0];
    for (unsigned i = 0; i < n; i++)
        for (unsigned j = 0; j < n; j++) {
            u64 hi, lo;
            mul_full(values[i], values[j], &hi, &lo);
            printf("%llx %llx %llx\n", mul_high(values[i], values[j]), hi, lo);
        }
    return 0;
}
"""

VALUES = [0, 1, 3, 0xFFFFFFFF, 0x100000000, 0xDEADBEEFCAFEF00D, 0x8000000000000000,
          0xFFFFFFFFFFFFFFFF, 10000000000000000000, 0x123456789]


@pytest.mark.parametrize("opt", [0, 2, "s"])
def test_the_64_by_64_bit_multiplication_idiom(tmp_path, opt):
    out, status = compile_and_run(tmp_path, PROGRAM, opt=opt)
    expected = "".join(f"{a * b >> 64:x} {a * b >> 64:x} {a * b & (2**64 - 1):x}\n"
                       for a in VALUES for b in VALUES)
    assert (out, status) == (expected, 0)
