"""Semantics of the floating-point and 64-bit integer instructions, on raw words.

IEEE 754 binary32 and binary64, round to nearest even. Results are those of the C
library's soft-float routines (lib/src/softfloat_*.c), so code compiled to use these
instructions prints what code calling the routines printed:

- an arithmetic result that is NaN is the default quiet NaN, positive
  (0x7FC00000, 0x7FF8000000000000);
- float <-> double keep the sign of a NaN (and, widening, its payload);
- float -> integer truncates toward zero; signed: NaN or out of range gives the most
  negative integer; unsigned: a negative input converts as signed would (then taken
  as unsigned), NaN or too large gives 0;
- compares set PSW like ARM's VCMP: less N, equal Z and C, greater C, unordered C and V,
  so the integer conditional branches read as ordered/unordered float predicates.

binary32 arithmetic is done in double and rounded once, which is exact for + - * /
(53 >= 2 * 24 + 2). Pairs of registers hold 64-bit values, low word first.
"""
from __future__ import annotations

import math
import struct

M32 = 0xFFFFFFFF
M64 = (1 << 64) - 1
F32_NAN = 0x7FC00000
F64_NAN = 0x7FF8000000000000
_F32 = struct.Struct("<f")
_F64 = struct.Struct("<d")
_U32 = struct.Struct("<I")
_U64 = struct.Struct("<Q")

# PSW after a compare (Z=1 C=2 N=4 V=8)
CMP_LESS, CMP_EQUAL, CMP_GREATER, CMP_UNORDERED = 0x4, 0x3, 0x2, 0xA


def f32(bits: int) -> float:
    return _F32.unpack(_U32.pack(bits & M32))[0]


def f64(bits: int) -> float:
    return _F64.unpack(_U64.pack(bits & M64))[0]


def bits64(value: float) -> int:
    """A double's bits; NaN becomes the default NaN."""
    return F64_NAN if value != value else _U64.unpack(_F64.pack(value))[0]


def bits32(value: float) -> int:
    """A double rounded to binary32; NaN becomes the default NaN, overflow infinity."""
    if value != value:
        return F32_NAN
    try:
        return _U32.unpack(_F32.pack(value))[0]
    except OverflowError:
        return 0xFF800000 if value < 0 else 0x7F800000


def _divide(x: float, y: float) -> float:
    if y == 0.0:
        if x != x or x == 0.0:
            return math.nan
        return math.copysign(math.inf, x) * math.copysign(1.0, y)
    return x / y


def fadds(a: int, b: int) -> int:
    return bits32(f32(a) + f32(b))


def fsubs(a: int, b: int) -> int:
    return bits32(f32(a) - f32(b))


def fmuls(a: int, b: int) -> int:
    return bits32(f32(a) * f32(b))


def fdivs(a: int, b: int) -> int:
    return bits32(_divide(f32(a), f32(b)))


def dadd(a: int, b: int) -> int:
    return bits64(f64(a) + f64(b))


def dsub(a: int, b: int) -> int:
    return bits64(f64(a) - f64(b))


def dmul(a: int, b: int) -> int:
    return bits64(f64(a) * f64(b))


def ddiv(a: int, b: int) -> int:
    return bits64(_divide(f64(a), f64(b)))


def compare(x: float, y: float) -> int:
    """PSW of a float compare."""
    if x != x or y != y:
        return CMP_UNORDERED
    return CMP_LESS if x < y else CMP_EQUAL if x == y else CMP_GREATER


def fcmps(a: int, b: int) -> int:
    return compare(f32(a), f32(b))


def dcmp(a: int, b: int) -> int:
    return compare(f64(a), f64(b))


# --- conversions -------------------------------------------------------------------------

def s2d(a: int) -> int:
    """binary32 -> binary64, exact; a NaN keeps its sign and payload (made quiet)."""
    if (a & 0x7F800000) == 0x7F800000 and a & 0x7FFFFF:
        return ((a >> 31) << 63) | 0x7FF8000000000000 | ((a & 0x7FFFFF) << 29)
    return _U64.unpack(_F64.pack(f32(a)))[0]


def d2s(a: int) -> int:
    """binary64 -> binary32, rounded; a NaN keeps its sign."""
    value = f64(a)
    if value != value:
        return ((a >> 63) << 31) | F32_NAN
    return bits32(value)


def _round_to(value: int, bits: int) -> int:
    """A non-negative integer rounded (to nearest even) to `bits` significant bits."""
    shift = value.bit_length() - bits
    if shift <= 0:
        return value
    q, r = divmod(value, 1 << shift)
    half = 1 << (shift - 1)
    if r > half or (r == half and q & 1):
        q += 1
    return q << shift


def int_to_s(value: int) -> int:
    """Any integer -> binary32, correctly rounded (one rounding, not via double)."""
    magnitude = _round_to(abs(value), 24)
    return bits32(-float(magnitude) if value < 0 else float(magnitude))


def int_to_d(value: int) -> int:
    return bits64(float(value))              # CPython rounds int -> float correctly


def _signed(value: int, bits: int) -> int:
    return value - (1 << bits) if value >> (bits - 1) else value


def to_int(x: float, negative: bool, bits: int, signed: bool) -> int:
    """float -> integer as the soft-float routines do (see the module docstring)."""
    low, high = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (0, (1 << bits) - 1)
    if not signed and negative:
        return to_int(x, negative, bits, True)
    if x != x or math.isinf(x):
        return 1 << (bits - 1) if signed else 0
    n = math.trunc(x)
    if not low <= n <= high:
        return 1 << (bits - 1) if signed else 0
    return n & ((1 << bits) - 1)


def float_to_int(bits: int, width: int, signed: bool, double: bool) -> int:
    """The integer conversion of a binary32 (`double` False) or binary64 value."""
    x = f64(bits) if double else f32(bits)
    negative = bool(bits >> (63 if double else 31))
    return to_int(x, negative, width, signed)


# --- 64-bit integers ---------------------------------------------------------------------

def div64(x: int, y: int, signed: bool) -> int:
    """Truncating quotient (y != 0); INT64_MIN / -1 is INT64_MIN."""
    if not signed:
        return x // y
    sx, sy = _signed(x, 64), _signed(y, 64)
    q = abs(sx) // abs(sy)
    return (-q if (sx < 0) != (sy < 0) else q) & M64


def rem64(x: int, y: int, signed: bool) -> int:
    """Remainder with the sign of x (y != 0); INT64_MIN % -1 is 0."""
    if not signed:
        return x % y
    sx, sy = _signed(x, 64), _signed(y, 64)
    m = abs(sx) % abs(sy)
    return (-m if sx < 0 else m) & M64
