"""f16 helpers against IEEE 754 binary16, computed independently with exact fractions."""
import math
import struct
from fractions import Fraction

from hypothesis import given, strategies as st

from hsx.isa import f16


def reference_round(x) -> int:
    """Round-to-nearest-even to binary16, computed exactly with fractions."""
    if isinstance(x, float) and math.isnan(x):
        return f16.F16_NAN
    sign = 0x8000 if x < 0 or (isinstance(x, float) and math.copysign(1.0, x) < 0) else 0
    mag = abs(Fraction(x))
    if mag == 0:
        return sign
    exponent = max(mag.numerator.bit_length() - mag.denominator.bit_length() - 1, -14)
    while Fraction(2) ** (exponent + 1) <= mag:
        exponent += 1
    quantum = Fraction(2) ** (exponent - 10)
    rounded = round(mag / quantum) * quantum        # Fraction rounds half to even
    if rounded > 65504:
        return sign | 0x7C00
    return sign | int.from_bytes(struct.pack("<e", float(rounded)), "little")


ALL_FINITE = [b for b in range(0x10000) if (b & 0x7C00) != 0x7C00]


def test_every_finite_half_round_trips():
    for bits in ALL_FINITE:
        assert f16.float_to_f16(f16.f16_to_float(bits)) == bits


@given(st.floats(allow_nan=False, width=64, min_value=-70000, max_value=70000))
def test_encoding_rounds_to_nearest_even(x):
    assert f16.float_to_f16(x) == reference_round(x)


def test_subnormal_boundary_rounds_up_to_smallest_normal():
    # The prior encoder clamped this to 0x03FF.
    just_below_min_normal = (2 ** -14) - (2 ** -26)
    assert f16.float_to_f16(just_below_min_normal) == 0x0400


def test_special_values():
    assert f16.float_to_f16(float("inf")) == 0x7C00
    assert f16.float_to_f16(float("-inf")) == 0xFC00
    assert f16.float_to_f16(float("nan")) == 0x7E00
    assert f16.float_to_f16(-0.0) == 0x8000
    assert f16.float_to_f16(65519.0) == 0x7BFF
    assert f16.float_to_f16(65520.0) == 0x7C00


def test_division_by_zero_follows_ieee():
    one, zero, neg_zero = 0x3C00, 0x0000, 0x8000
    assert f16.f16_div(one, zero) == 0x7C00
    assert f16.f16_div(one, neg_zero) == 0xFC00
    assert f16.f16_div(0xBC00, zero) == 0xFC00
    assert f16.f16_div(zero, zero) == 0x7E00
    assert f16.f16_div(0x7E00, zero) == 0x7E00


def test_conversions_to_int_are_defined_for_every_input():
    assert f16.f16_to_int(0x7E00) == 0                 # NaN
    assert f16.f16_to_int(0x7C00) == 0x7FFFFFFF        # +Inf saturates
    assert f16.f16_to_int(0xFC00) == 0x80000000        # -Inf saturates
    assert f16.f16_to_int(0xC200) == 0xFFFFFFFD        # -3.0
    assert f16.f16_to_int(0x3E00) == 1                 # 1.5 truncates
    assert f16.int_to_f16(0xFFFFFFFD) == 0xC200
    assert f16.int_to_f16(15360) == 0x7380
    assert f16.int_to_f16(70000) == 0x7C00


@given(st.sampled_from(ALL_FINITE), st.sampled_from(ALL_FINITE))
def test_arithmetic_is_correctly_rounded(a, b):
    x, y = Fraction(f16.f16_to_float(a)), Fraction(f16.f16_to_float(b))
    for fn, exact in ((f16.f16_add, x + y), (f16.f16_sub, x - y), (f16.f16_mul, x * y)):
        assert fn(a, b) & 0x7FFF == reference_round(exact) & 0x7FFF
    if y:
        assert f16.f16_div(a, b) & 0x7FFF == reference_round(x / y) & 0x7FFF
