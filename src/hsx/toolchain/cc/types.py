"""LLVM types as the back end sees them, and their ILP32 memory layout.

The front end targets wasm32 (little-endian, 32-bit pointers, i64/double aligned to 8),
so the layout rules here are the C rules of that data layout, for named and literal
struct types alike (a test compares them with LLVM's own target data).
"""
from __future__ import annotations

from dataclasses import dataclass, field


class Type:
    """Base of all types; instances are immutable and compare by value."""


@dataclass(frozen=True)
class IntT(Type):
    bits: int

    def __str__(self) -> str:
        return f"i{self.bits}"


@dataclass(frozen=True)
class PtrT(Type):
    def __str__(self) -> str:
        return "ptr"


@dataclass(frozen=True)
class FloatT(Type):
    name: str          # half, bfloat, float, double, fp128, x86_fp80, ppc_fp128
    bits: int

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True)
class VoidT(Type):
    def __str__(self) -> str:
        return "void"


@dataclass(frozen=True)
class LabelT(Type):
    def __str__(self) -> str:
        return "label"


@dataclass(frozen=True)
class MetadataT(Type):
    def __str__(self) -> str:
        return "metadata"


@dataclass(frozen=True)
class TokenT(Type):
    def __str__(self) -> str:
        return "token"


@dataclass(frozen=True)
class ArrayT(Type):
    count: int
    elem: Type

    def __str__(self) -> str:
        return f"[{self.count} x {self.elem}]"


@dataclass(frozen=True)
class VectorT(Type):
    count: int
    elem: Type

    def __str__(self) -> str:
        return f"<{self.count} x {self.elem}>"


@dataclass(frozen=True)
class StructT(Type):
    fields: tuple
    packed: bool = False
    name: str | None = field(default=None, compare=False)

    def __str__(self) -> str:
        if self.name:
            return f"%{self.name}"
        body = "{ " + ", ".join(map(str, self.fields)) + " }"
        return f"<{body}>" if self.packed else body


@dataclass(frozen=True)
class FuncT(Type):
    ret: Type
    params: tuple
    vararg: bool = False

    def __str__(self) -> str:
        params = [str(p) for p in self.params] + (["..."] if self.vararg else [])
        return f"{self.ret} ({', '.join(params)})"


VOID = VoidT()
I1, I8, I16, I32, I64 = IntT(1), IntT(8), IntT(16), IntT(32), IntT(64)
PTR = PtrT()
FLOAT = FloatT("float", 32)
DOUBLE = FloatT("double", 64)
HALF = FloatT("half", 16)


def is_int(ty: Type, bits: int | None = None) -> bool:
    return isinstance(ty, IntT) and (bits is None or ty.bits == bits)


def words_of(ty: Type) -> int:
    """How many 32-bit registers a first-class value of `ty` occupies (0 = unsupported)."""
    if isinstance(ty, IntT):
        return 1 if ty.bits <= 32 else 2 if ty.bits <= 64 else 0
    if isinstance(ty, PtrT):
        return 1
    if isinstance(ty, FloatT):
        return 1 if ty.bits <= 32 else 2 if ty.bits == 64 else 0
    return 0


class Layout:
    """Sizes, alignments and field offsets (wasm32 data layout, ILP32)."""

    def __init__(self) -> None:
        self._cache: dict[StructT, tuple[list[int], int, int]] = {}

    def size(self, ty: Type) -> int:
        """Allocation size in bytes (the stride of an array of `ty`)."""
        if isinstance(ty, IntT):
            raw = (ty.bits + 7) // 8
            return _round(raw, self.align(ty))
        if isinstance(ty, PtrT):
            return 4
        if isinstance(ty, FloatT):
            return {16: 2, 32: 4, 64: 8, 80: 16, 128: 16}[ty.bits]
        if isinstance(ty, ArrayT):
            return ty.count * self.size(ty.elem)
        if isinstance(ty, VectorT):
            return _round(ty.count * self.size(ty.elem), self.align(ty))
        if isinstance(ty, StructT):
            return self._struct(ty)[1]
        raise TypeError(f"type {ty} has no size")

    def store_size(self, ty: Type) -> int:
        """Bytes a load or store of `ty` touches."""
        if isinstance(ty, IntT):
            return (ty.bits + 7) // 8
        return self.size(ty)

    def align(self, ty: Type) -> int:
        if isinstance(ty, IntT):
            raw = (ty.bits + 7) // 8
            return 1 if raw <= 1 else 2 if raw <= 2 else 4 if raw <= 4 else 8 if raw <= 8 else 16
        if isinstance(ty, PtrT):
            return 4
        if isinstance(ty, FloatT):
            return {16: 2, 32: 4, 64: 8, 80: 16, 128: 16}[ty.bits]
        if isinstance(ty, ArrayT):
            return self.align(ty.elem)
        if isinstance(ty, VectorT):
            size = ty.count * self.size(ty.elem)
            return 1 << max(0, (size - 1).bit_length())
        if isinstance(ty, StructT):
            return self._struct(ty)[2]
        raise TypeError(f"type {ty} has no alignment")

    def offsets(self, ty: StructT) -> list[int]:
        return self._struct(ty)[0]

    def _struct(self, ty: StructT) -> tuple[list[int], int, int]:
        cached = self._cache.get(ty)
        if cached is not None:
            return cached
        offsets, cursor, align = [], 0, 1
        for f in ty.fields:
            a = 1 if ty.packed else self.align(f)
            cursor = _round(cursor, a)
            offsets.append(cursor)
            cursor += self.size(f)
            align = max(align, a)
        result = (offsets, _round(cursor, align), align)
        self._cache[ty] = result
        return result


def _round(value: int, to: int) -> int:
    return (value + to - 1) // to * to
