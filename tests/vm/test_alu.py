"""Every ALU/immediate/float instruction against a small independent reference model,
on both the exact interpreter and the translator."""
from __future__ import annotations

from fractions import Fraction
import math

import pytest
from hypothesis import given, settings, strategies as st

from hsx.isa import BY_MNEMONIC, Flags, Form, Group
from hsx.isa.f16 import f16_to_float
from hsx.vm import StopReason
from vmkit import load

MOD = 1 << 32
Z, C, N, V = 1, 2, 4, 8


def signed(x: int) -> int:
    return x - MOD if x >= 1 << 31 else x


def overflows(value: int) -> bool:
    return not -(1 << 31) <= value < 1 << 31


def trunc_div(a: int, b: int) -> int:
    return math.trunc(Fraction(a, b))


def reference(name: str, a: int, b: int, psw: int):
    """(result or None, psw after) — or "fault" for division by zero."""
    cin = 1 if psw & C else 0
    sa, sb = signed(a), signed(b)
    c = v = 0
    keep_c = False
    if name in ("ADD", "ADDI"):
        r, c, v = a + b, a + b >= MOD, overflows(sa + sb)
    elif name == "ADC":
        r, c, v = a + b + cin, a + b + cin >= MOD, overflows(sa + sb + cin)
    elif name in ("SUB", "CMP", "CMPI"):
        r, c, v = a - b, a >= b, overflows(sa - sb)
    elif name == "SBC":
        borrow = 1 - cin
        r, c, v = a - b - borrow, a >= b + borrow, overflows(sa - sb - borrow)
    elif name in ("MUL", "MULI"):
        r = a * b
        c = v = r >= MOD
    elif name in ("DIV", "DIVU", "REM", "REMU"):
        if b == 0:
            return "fault"
        r = {"DIV": lambda: trunc_div(sa, sb), "DIVU": lambda: a // b,
             "REM": lambda: sa - sb * trunc_div(sa, sb), "REMU": lambda: a % b}[name]()
    elif name == "MULHU":
        r = (a * b) // MOD
    elif name == "MULHS":
        r = math.floor(Fraction(sa * sb, MOD))
    elif name in ("AND", "ANDI"):
        r = a & b
    elif name in ("OR", "ORI"):
        r = a | b
    elif name in ("XOR", "XORI"):
        r = a ^ b
    elif name == "NOT":
        r = MOD - 1 - a
    elif name in ("LSL", "LSLI", "LSR", "LSRI", "ASR", "ASRI"):
        sh = b % 32
        if name.startswith("LSL"):
            r = a * 2 ** sh
            c = (a >> (32 - sh)) & 1 if sh else 0
        elif name.startswith("LSR"):
            r = a // 2 ** sh
            c = (a >> (sh - 1)) & 1 if sh else 0
        else:
            r = math.floor(Fraction(sa, 2 ** sh))
            c = (a >> (sh - 1)) & 1 if sh else 0   # bit sh-1 of a is the same for sa
        keep_c = sh == 0
    else:
        raise AssertionError(name)
    r %= MOD
    flags = (Z if r == 0 else 0) | (N if r >> 31 else 0) | (V if v else 0)
    flags |= (psw & C) if keep_c else (C if c else 0)
    return (None if name in ("CMP", "CMPI") else r), flags


INTEGER_OPS = sorted(m for m, op in BY_MNEMONIC.items()
                     if op.group in (Group.ALU, Group.IMMEDIATE))
EDGE = st.sampled_from([0, 1, 2, 31, 32, 33, 0x7FFFFFFF, 0x80000000, 0x80000001,
                        0xFFFFFFFF, 0xFFFFFFFE, 0x10000, 0xFFFF])
U32 = st.one_of(EDGE, st.integers(0, MOD - 1))
IMM = st.one_of(st.sampled_from([0, 1, -1, 31, 32, 2047, -2048]), st.integers(-2048, 2047))


def test_every_integer_op_is_covered():
    assert set(INTEGER_OPS) >= {"ADD", "ADC", "SBC", "DIV", "REM", "MULHS", "CMPI", "ASRI"}


def _program(name: str, imm: int) -> str:
    form = BY_MNEMONIC[name].form
    return {Form.RD_RS_RS: f"{name} R3, R1, R2", Form.RD_RS: f"{name} R3, R1",
            Form.RS_RS: f"{name} R1, R2", Form.RS_IMM: f"{name} R1, {imm}",
            Form.RD_RS_IMM: f"{name} R3, R1, {imm}"}[form]


@pytest.mark.parametrize("translate", [False, True], ids=["interp", "translate"])
@pytest.mark.parametrize("name", INTEGER_OPS)
@settings(max_examples=60, deadline=None)
@given(a=U32, b=U32, imm=IMM, psw=st.integers(0, 15))
def test_integer_op(translate, name, a, b, imm, psw):
    form = BY_MNEMONIC[name].form
    m, ctx = load(_program(name, imm), "BRK 0", translate=translate, mem_size=0x8000)
    m.write_register(ctx, 1, a)
    m.write_register(ctx, 2, b)
    m.write_register(ctx, 3, 0xDEADBEEF)
    m.set_psw(ctx, psw)
    stop = m.run(ctx, 10)
    operand = (imm % MOD) if form in (Form.RS_IMM, Form.RD_RS_IMM) else b
    expected = reference(name, a, operand, psw)
    if expected == "fault":
        assert stop.reason is StopReason.FAULT and stop.fault.kind == "divide_by_zero"
        assert m.registers(ctx)[3] == 0xDEADBEEF and ctx.psw == psw and ctx.pc == 0
        return
    result, flags = expected
    assert stop.reason is StopReason.BRK
    assert m.registers(ctx)[3] == (0xDEADBEEF if result is None else result)
    assert ctx.psw == flags, f"{name} psw {ctx.psw:04b} != {flags:04b}"
    assert BY_MNEMONIC[name].flags is not Flags.NONE


FLOAT_OPS = {"FADD": lambda x, y: x + y, "FSUB": lambda x, y: x - y,
             "FMUL": lambda x, y: x * y}
HALF = st.one_of(st.sampled_from([0x0000, 0x8000, 0x3C00, 0xBC00, 0x7C00, 0xFC00, 0x7E00,
                                  0x0001, 0x03FF, 0x7BFF]), st.integers(0, 0xFFFF))


def _f16(value: float) -> int:
    """Reference encoder: IEEE round-to-nearest-even via numpy-free struct semantics."""
    import struct
    if value != value:
        return 0x7E00
    try:
        return int.from_bytes(struct.pack("<e", value), "little")
    except OverflowError:
        return 0xFC00 if value < 0 else 0x7C00


@pytest.mark.parametrize("translate", [False, True], ids=["interp", "translate"])
@settings(max_examples=150, deadline=None)
@given(name=st.sampled_from(sorted(FLOAT_OPS) + ["FDIV"]), a=HALF, b=HALF,
       upper=st.integers(0, 0xFFFF), psw=st.integers(0, 15))
def test_float_ops_replace_low_half_only(translate, name, a, b, upper, psw):
    m, ctx = load(f"{name} R3, R1, R2", "BRK 0", translate=translate, mem_size=0x8000)
    m.write_register(ctx, 1, 0x12340000 | a)
    m.write_register(ctx, 2, 0x56780000 | b)
    m.write_register(ctx, 3, upper << 16)
    m.set_psw(ctx, psw)
    m.run(ctx, 5)
    x, y = f16_to_float(a), f16_to_float(b)
    if name == "FDIV":
        if y == 0:
            expected = 0x7E00 if x == 0 or x != x else (
                0xFC00 if (math.copysign(1, x) * math.copysign(1, y)) < 0 else 0x7C00)
        else:
            expected = _f16(x / y)
    else:
        expected = _f16(FLOAT_OPS[name](x, y))
    assert m.registers(ctx)[3] == (upper << 16) | expected
    assert ctx.psw == psw


@pytest.mark.parametrize("translate", [False, True], ids=["interp", "translate"])
@settings(max_examples=100, deadline=None)
@given(a=U32, h=HALF)
def test_i2f_and_f2i(translate, a, h):
    m, ctx = load("I2F R3, R1", "F2I R4, R2", "BRK 0", translate=translate, mem_size=0x8000)
    m.write_register(ctx, 1, a)
    m.write_register(ctx, 2, 0xFFFF0000 | h)
    m.write_register(ctx, 3, 0xABCD0000)
    m.write_register(ctx, 4, 0x11111111)
    m.run(ctx, 5)
    regs = m.registers(ctx)
    assert regs[3] == 0xABCD0000 | _f16(float(signed(a)))
    x = f16_to_float(h)
    if x != x:
        want = 0
    elif math.isinf(x):
        want = 0x7FFFFFFF if x > 0 else 0x80000000
    else:
        want = math.trunc(x) % MOD
    assert regs[4] == want
