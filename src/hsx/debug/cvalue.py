"""Typed values of C expressions: where a value lives (memory, a register, a bit-field),
reading its bytes from a stopped task, and C's conversions between types.

`cexpr` builds expression trees out of these; `variables` and `inspector` read and
write variables through them.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from . import ctype as C
from .ctype import CType, Field


class EvalError(Exception):
    """The expression cannot be parsed or evaluated here (the message says why)."""


@dataclass(frozen=True)
class Location:
    kind: str                      # "memory", "register", "bitfield", "special"
    addr: int = 0                  # memory / bit-field storage
    reg: int = 0                   # register (a pair from here for 8-byte values)
    regs: tuple[int, ...] | None = None   # the registers of each word, when not a run
    field: Field | None = None     # bit-fields
    special: str | None = None     # "pc" or "psw"


@dataclass
class TValue:
    type: CType
    loc: Location | None = None    # None: not an lvalue
    data: bytes | None = None      # an rvalue's bytes


class Scope(Protocol):
    """What an expression can see: one frame of one stopped task."""

    types: C.TypeTable

    def variable(self, name: str) -> TValue | None: ...
    def label(self, name: str) -> int | None: ...
    def read(self, addr: int, size: int) -> bytes: ...
    def register(self, index: int) -> int: ...
    def special(self, name: str) -> int: ...       # "pc", "psw"


def rvalue(t: CType, value: int | float) -> TValue:
    return TValue(t, None, C.encode(t, value))


def load(v: TValue, scope: Scope) -> bytes:
    """The bytes of a value (reading memory or registers for an lvalue)."""
    if v.loc is None:
        return v.data or b""
    size = v.type.strip().size
    loc = v.loc
    if loc.kind == "memory":
        return scope.read(loc.addr, size)
    if loc.kind == "register":
        regs = register_words(loc, size)
        raw = b"".join(scope.register(r).to_bytes(4, "little") for r in regs)
        return raw[:size] if size else raw[:4]
    if loc.kind == "special":
        return scope.special(loc.special).to_bytes(4, "little")
    f = loc.field
    value = C.bitfield_value(Field(f.name, f.type, 0, f.bit_offset, f.bit_size),
                             scope.read(loc.addr, C.bitfield_span(f)))
    return C.encode(f.type, value)


def register_words(loc: Location, size: int) -> tuple[int, ...]:
    """The registers holding each 32-bit word of a `size`-byte value in registers."""
    words = (size + 3) // 4 or 1
    if loc.regs is not None and len(loc.regs) >= words:
        return loc.regs[:words]
    if loc.reg + words > 16:
        raise EvalError(f"a {size}-byte value does not fit from R{loc.reg}")
    return tuple(range(loc.reg, loc.reg + words))


def scalar(v: TValue, scope: Scope) -> int | float:
    t = v.type.strip()
    if t.kind in ("array", "function"):
        return address_of(v)                    # arrays and functions decay to addresses
    if t.kind in ("struct", "union"):
        raise EvalError(f"a {t.display} is not a number")
    return C.decode(v.type, load(v, scope))


def integer(v: TValue, scope: Scope) -> int:
    value = scalar(v, scope)
    if isinstance(value, float):
        raise EvalError("expected an integer, not a floating-point value")
    return value


def truth(v: TValue, scope: Scope) -> bool:
    return scalar(v, scope) != 0


def address_of(v: TValue) -> int:
    if v.loc is None or v.loc.kind not in ("memory",):
        where = {"register": "in a register", "bitfield": "a bit-field",
                 "special": "a register"}.get(v.loc.kind if v.loc else "", "not in memory")
        raise EvalError(f"the value has no address ({where})")
    return v.loc.addr


def cast(t: CType, v: TValue, scope: Scope) -> TValue:
    target = t.strip()
    if target.kind in ("struct", "union", "array"):
        raise EvalError(f"cannot cast to {t.display}")
    if target.kind == "void":
        return TValue(C.VOID, None, b"")
    return rvalue(t, scalar(v, scope))


def _rank(t: CType) -> tuple[int, bool]:
    s = t.strip()
    if s.kind == "enum":
        return 4, False
    return max(s.size, 4), not t.signed


def arithmetic_type(a: CType, b: CType) -> CType:
    """C's usual arithmetic conversions (integers promoted to at least int)."""
    if a.is_float or b.is_float:
        sizes = [t.strip().size for t in (a, b) if t.is_float]
        return C.DOUBLE if max(sizes) >= 8 else C.FLOAT
    (size_a, unsigned_a), (size_b, unsigned_b) = _rank(a), _rank(b)
    size = max(size_a, size_b)
    unsigned = (unsigned_a and size_a == size) or (unsigned_b and size_b == size)
    if size >= 8:
        return C.ULONG_LONG if unsigned else C.LONG_LONG
    return C.UINT if unsigned else C.INT


def converted(t: CType, value: int | float) -> int | float:
    """`value` converted to arithmetic type `t` (wrapping, or truncating floats)."""
    return C.decode(t, C.encode(t, value))


def assignment(target: TValue, value: TValue, scope: Scope) -> bytes:
    """The bytes `value` becomes when stored into `target` (C's conversion)."""
    t = target.type.strip()
    if target.loc is None:
        raise EvalError("the left side is not something that can be assigned")
    if t.kind in ("struct", "union", "array"):
        if value.type.strip() is not t:
            raise EvalError(f"cannot assign a {value.type.display} to a {target.type.display}")
        return load(value, scope)
    return C.encode(target.type, scalar(value, scope))
