"""The floating-point instructions' semantics (hsx.isa.fp) against exact arithmetic:
every binary32/binary64 result is the exact rational result rounded to nearest even,
NaN results are the default NaN, and conversions follow the documented rules."""
from __future__ import annotations

import math
import struct
from fractions import Fraction

from hypothesis import given, settings, strategies as st

from hsx.isa import fp

FORMATS = {32: (24, -126, 127), 64: (53, -1022, 1023)}   # precision, emin, emax


def exact(bits: int, width: int) -> Fraction | float:
    value = fp.f32(bits) if width == 32 else fp.f64(bits)
    return value if math.isinf(value) or value != value else Fraction(value)


def round_exact(q: Fraction, width: int, negative_zero: bool) -> int:
    """The bits of `q` rounded to nearest even in the format (overflow: infinity)."""
    precision, emin, emax = FORMATS[width]
    pack = (lambda v: struct.unpack("<I", struct.pack("<f", v))[0]) if width == 32 else \
        (lambda v: struct.unpack("<Q", struct.pack("<d", v))[0])
    if q == 0:
        return pack(-0.0 if negative_zero else 0.0)
    sign, q = (-1, -q) if q < 0 else (1, q)
    e = q.numerator.bit_length() - q.denominator.bit_length()
    if Fraction(2) ** e > q:
        e -= 1
    e = max(e, emin)                       # subnormals: fixed quantum 2^(emin - p + 1)
    quantum = Fraction(2) ** (e - precision + 1)
    n, r = divmod(q, quantum)
    n = int(n)
    if r > quantum / 2 or (r == quantum / 2 and n & 1):
        n += 1
    value = n * quantum
    if value >= Fraction(2) ** (emax + 1):
        return pack(sign * math.inf)
    return pack(sign * float(value)) if width == 64 else pack(sign * float(value))


OPS = {"add": (lambda x, y: x + y), "sub": (lambda x, y: x - y),
       "mul": (lambda x, y: x * y), "div": (lambda x, y: x / y)}
HELPERS = {(32, "add"): fp.fadds, (32, "sub"): fp.fsubs, (32, "mul"): fp.fmuls,
           (32, "div"): fp.fdivs, (64, "add"): fp.dadd, (64, "sub"): fp.dsub,
           (64, "mul"): fp.dmul, (64, "div"): fp.ddiv}

# Bit patterns biased toward the interesting: zeros, subnormals, huge, ones, infinities.
bits32 = st.one_of(st.integers(0, 0xFFFFFFFF),
                   st.sampled_from([0, 0x80000000, 1, 0x807FFFFF, 0x7F7FFFFF, 0x3F800000,
                                    0x7F800000, 0xFF800000, 0x7FC00001, 0x00800000]))
bits64 = st.one_of(st.integers(0, (1 << 64) - 1),
                   st.sampled_from([0, 1 << 63, 1, 0x7FEFFFFFFFFFFFFF, 0x3FF0000000000000,
                                    0x7FF0000000000000, 0xFFF0000000000000,
                                    0x0010000000000000]))


def check(width: int, name: str, a: int, b: int) -> None:
    x, y = exact(a, width), exact(b, width)
    got = HELPERS[width, name](a, b)
    nan = fp.F32_NAN if width == 32 else fp.F64_NAN
    if isinstance(x, float) or isinstance(y, float) or (name == "div" and y == 0):
        # infinities, NaN, division by zero: IEEE's rules, computed by the host
        fx = fp.f32(a) if width == 32 else fp.f64(a)
        fy = fp.f32(b) if width == 32 else fp.f64(b)
        try:
            expected = OPS[name](fx, fy)
        except ZeroDivisionError:
            expected = (math.nan if fx != fx or fx == 0
                        else math.copysign(math.inf, fx) * math.copysign(1.0, fy))
        want = fp.bits32(expected) if width == 32 else fp.bits64(expected)
        assert got == want
        return
    sign_bit = 1 << (width - 1)
    negative_zero = {"add": a & b & sign_bit, "sub": a & ~b & sign_bit,
                     "mul": (a ^ b) & sign_bit, "div": (a ^ b) & sign_bit}[name]
    assert got == round_exact(OPS[name](x, y), width, bool(negative_zero)), \
        (hex(a), hex(b), hex(got))
    assert got != nan


@settings(max_examples=1500)
@given(a=bits32, b=bits32, name=st.sampled_from(sorted(OPS)))
def test_binary32_arithmetic_is_correctly_rounded(a, b, name):
    check(32, name, a, b)


@settings(max_examples=1500)
@given(a=bits64, b=bits64, name=st.sampled_from(sorted(OPS)))
def test_binary64_arithmetic_is_correctly_rounded(a, b, name):
    check(64, name, a, b)


@given(st.integers(-(1 << 63), (1 << 64) - 1))
def test_integers_to_float_are_correctly_rounded(value):
    assert fp.int_to_s(value) == round_exact(Fraction(value), 32, False)
    assert fp.int_to_d(value) == round_exact(Fraction(value), 64, False)


@given(a=bits32, b=bits32)
def test_compares_set_arm_style_flags(a, b):
    x, y = fp.f32(a), fp.f32(b)
    psw = fp.fcmps(a, b)
    if x != x or y != y:
        assert psw == 0xA                                    # C and V
    else:
        assert psw == (0x4 if x < y else 0x3 if x == y else 0x2)


def test_conversions_to_integers_follow_the_soft_float_rules():
    d = fp.bits64
    assert fp.float_to_int(d(-1.5), 32, True, True) == 0xFFFFFFFF
    assert fp.float_to_int(d(2.0 ** 31), 32, True, True) == 0x80000000
    assert fp.float_to_int(d(math.nan), 32, True, True) == 0x80000000
    assert fp.float_to_int(d(-1.0), 32, False, True) == 0xFFFFFFFF      # as signed
    assert fp.float_to_int(d(2.0 ** 32), 32, False, True) == 0
    assert fp.float_to_int(d(4294967295.9), 32, False, True) == 0xFFFFFFFF
    assert fp.float_to_int(d(-(2.0 ** 63)), 64, True, True) == 1 << 63
    assert fp.float_to_int(d(1e300), 64, False, True) == 0


def test_nan_keeps_its_sign_across_float_and_double():
    assert fp.d2s(0xFFF8000000000123) == 0xFFC00000
    assert fp.s2d(0xFFC00001) == 0xFFF8000020000000
    assert fp.s2d(0x3F800000) == fp.bits64(1.0)
