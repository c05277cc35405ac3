"""IEEE 754 binary16 helpers: exact decoding, correctly rounded encoding.

Python's `struct` 'e' format packs with round-to-nearest-even (subnormals included)
but raises on overflow, so only overflow and NaN need handling here.  Arithmetic on
two f16 values computed in double precision and rounded once is correctly rounded,
because a double holds every exact sum, difference and product of two halves and
enough precision for the quotient (53 >= 2*11 + 2).
"""
from __future__ import annotations

import math
import struct

_PACK = struct.Struct("<e")
F16_POS_INF = 0x7C00
F16_NEG_INF = 0xFC00
F16_NAN = 0x7E00          # canonical quiet NaN produced by every operation
F16_MAX = 65504.0


def f16_to_float(bits: int) -> float:
    """Decode the low 16 bits as binary16 (exact: subnormals, ±0, ±Inf, NaN)."""
    return _PACK.unpack((bits & 0xFFFF).to_bytes(2, "little"))[0]


def float_to_f16(value: float) -> int:
    """Encode a float as binary16 bits, rounding to nearest even; overflow gives ±Inf."""
    if value != value:
        return F16_NAN
    try:
        return int.from_bytes(_PACK.pack(value), "little")
    except OverflowError:
        return F16_NEG_INF if value < 0 else F16_POS_INF


def int_to_f16(value: int) -> int:
    """Signed 32-bit integer -> binary16, correctly rounded (exact int, one rounding)."""
    if value >= 1 << 31:
        value -= 1 << 32
    # Every int32 is exact as a double, so rounding happens once, in float_to_f16.
    return float_to_f16(float(value))


def f16_to_int(bits: int) -> int:
    """binary16 -> int32 truncated toward zero; ±Inf saturate, NaN gives 0."""
    x = f16_to_float(bits)
    if x != x:
        return 0
    if math.isinf(x):
        return 0x7FFFFFFF if x > 0 else 0x80000000
    return int(x) & 0xFFFFFFFF   # |x| <= 65504, always in range


def f16_add(a: int, b: int) -> int:
    return float_to_f16(f16_to_float(a) + f16_to_float(b))


def f16_sub(a: int, b: int) -> int:
    return float_to_f16(f16_to_float(a) - f16_to_float(b))


def f16_mul(a: int, b: int) -> int:
    return float_to_f16(f16_to_float(a) * f16_to_float(b))


def f16_div(a: int, b: int) -> int:
    """IEEE division: x/±0 is ±Inf by the signs, 0/0 and NaN operands give NaN."""
    x, y = f16_to_float(a), f16_to_float(b)
    if y == 0.0:
        if x != x or x == 0.0:
            return F16_NAN
        negative = (math.copysign(1.0, x) < 0) != (math.copysign(1.0, y) < 0)
        return F16_NEG_INF if negative else F16_POS_INF
    return float_to_f16(x / y)
