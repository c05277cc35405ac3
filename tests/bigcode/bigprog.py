"""A generated C program with well over 64 KiB of code, and what it must print.

`FUNCTIONS` functions each scramble a 32-bit value through a switch (several hundred
bytes of code each); `main` calls every one through a table, so all of them are linked
and run, and prints a checksum that `expected_output` computes the same way in Python.
"""
from __future__ import annotations

FUNCTIONS = 520
MASK = 0xFFFFFFFF


def _constants(i: int) -> tuple[int, int, int]:
    return (i * 2654435761 + 12345) & MASK, (i * 40503 + 7) & MASK | 1, (i * 97 + 3) & MASK


def source() -> str:
    parts = ["#include <stdio.h>", ""]
    for i in range(FUNCTIONS):
        key, mul, add = _constants(i)
        parts.append(f"""__attribute__((noinline)) unsigned f{i}(unsigned x)
{{
    unsigned a = x ^ {key}u;
    for (int round = 0; round < 2; round++) {{
        for (int k = 0; k < 3; k++) {{
            switch ((a >> k) & 7) {{
            case 0: a += {add}u; break;
            case 1: a ^= a << 3; break;
            case 2: a = a * {mul}u + {i}u; break;
            case 3: a -= a >> 2; break;
            case 4: a = (a >> 5) | (a << 27); break;
            case 5: a += a * a; break;
            case 6: a ^= {key ^ add}u; break;
            default: a = ~a + {add}u; break;
            }}
        }}
        if (a & 1)
            a = a * {mul ^ 0x5A5A}u + (a >> 7);
        else
            a = (a ^ {add}u) - (a << 5);
    }}
    return a;   /* line: f{i} return */
}}
""")
    table = ", ".join(f"f{i}" for i in range(FUNCTIONS))
    parts.append(f"""typedef unsigned (*step_fn)(unsigned);
static step_fn const steps[] = {{ {table} }};

int main(void)
{{
    unsigned acc = 1;
    for (unsigned i = 0; i < sizeof steps / sizeof steps[0]; i++)
        acc = steps[i](acc) ^ (acc >> 1);   /* line: call */
    printf("checksum %u\\n", acc);
    return 0;
}}
""")
    return "\n".join(parts)


def _scramble(i: int, x: int) -> int:
    key, mul, add = _constants(i)
    a = x ^ key
    for _ in range(2):
        for k in range(3):
            a = _case((a >> k) & 7, a, i, key, mul, add) & MASK
        if a & 1:
            a = a * (mul ^ 0x5A5A) + (a >> 7)
        else:
            a = (a ^ add) - (a << 5)
        a &= MASK
    return a


def _case(case: int, a: int, i: int, key: int, mul: int, add: int) -> int:
    if case == 0:
        return a + add
    if case == 1:
        return a ^ (a << 3)
    if case == 2:
        return a * mul + i
    if case == 3:
        return a - (a >> 2)
    if case == 4:
        return (a >> 5) | (a << 27)
    if case == 5:
        return a + a * a
    if case == 6:
        return a ^ key ^ add
    return (~a & MASK) + add


def expected_output() -> str:
    acc = 1
    for i in range(FUNCTIONS):
        acc = _scramble(i, acc) ^ (acc >> 1)
    return f"checksum {acc}\n"
