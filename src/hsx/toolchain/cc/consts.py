"""Evaluating LLVM constants: scalars to (symbol, addend) words, initialisers to bytes.

A scalar constant is a 32-bit word that is either a plain number, the address of a
symbol plus an addend (resolved by the linker), or -- in code only -- the difference of
two symbols' addresses plus an addend, which the code computes when it runs.  Aggregate
initialisers become a byte string plus the word relocations that the linker fills in.

Inside an expression a value is a sum of symbols' addresses with integer coefficients
plus a number (`_Linear`): clang folds a function that walks a string literal, once
inlined, into `(@s + 16) + (0 - @s) + 1`, whose symbols cancel to 17; only the result
has to be a number, an address plus a number or a difference of two addresses.
"""
from __future__ import annotations

from dataclasses import dataclass

from .irtext import (CAggregate, CBlockAddress, CBytes, CDSOLocalEquivalent, CExpr, CFloat,
                     CGlobal, CInt, CNull, CUndef, CZero)
from .ir import CompileError
from .naming import block_label
from .types import ArrayT, FloatT, IntT, Layout, PtrT, StructT, Type, VectorT


@dataclass(frozen=True)
class Word:
    """A constant value: `value`, plus the address of `symbol` when there is one, minus
    the address of `minus` when there is one (only in code: `ConstEvaluator.scalar`)."""

    value: int
    symbol: str | None = None
    minus: str | None = None

    @property
    def number(self) -> bool:
        """Whether the value is known now (no symbol's address in it)."""
        return self.symbol is None and self.minus is None


@dataclass(frozen=True)
class _Linear:
    """`value` + the sum of coefficient * address over `terms` ((symbol, coefficient),
    no zero coefficients): a constant expression while it is being evaluated."""

    value: int
    terms: tuple[tuple[str, int], ...] = ()

    def plus(self, other: "_Linear", sign: int = 1) -> "_Linear":
        terms = dict(self.terms)
        for name, k in other.terms:
            terms[name] = terms.get(name, 0) + sign * k
        return _Linear(self.value + sign * other.value,
                       tuple((n, k) for n, k in sorted(terms.items()) if k))

    def times(self, factor: int) -> "_Linear":
        return _Linear(self.value * factor,
                       tuple((n, k * factor) for n, k in self.terms if k * factor))


def mask(value: int, bits: int) -> int:
    return value & ((1 << bits) - 1)


def signed(value: int, bits: int) -> int:
    value = mask(value, bits)
    return value - (1 << bits) if value >> (bits - 1) else value


class ConstEvaluator:
    def __init__(self, layout: Layout, aliases: dict, functions=()) -> None:
        self.layout = layout
        self.aliases = aliases
        self.functions = {f.name: f for f in functions}     # for blockaddress

    def scalar(self, c, ty: Type) -> Word:
        """A constant of integer/pointer/float type (up to 64 bits, unsigned value): a
        number, an address plus a number, or (for code to compute) a difference of two
        addresses plus a number."""
        bits = _bits(ty)
        linear = self._linear(c, ty)
        plus = [n for n, k in linear.terms if k == 1]
        minus = [n for n, k in linear.terms if k == -1]
        if len(plus) + len(minus) < len(linear.terms) or len(plus) > 1 or len(minus) > 1:
            shown = " ".join(f"{'+' if k > 0 else '-'} {abs(k)}*&{n}" for n, k in linear.terms)
            raise CompileError(f"a constant combines symbol addresses ({shown.lstrip('+ ')}) "
                               "into something that is not an address plus a number or "
                               "the difference of two addresses")
        return Word(mask(linear.value, bits), plus[0] if plus else None,
                    minus[0] if minus else None)

    def _linear(self, c, ty: Type) -> _Linear:
        bits = _bits(ty)
        if isinstance(c, CInt):
            return _Linear(mask(c.value, bits))
        if isinstance(c, CFloat):
            return _Linear(c.bits)
        if isinstance(c, (CNull, CZero, CUndef)) or c is None:
            return _Linear(0)
        if isinstance(c, CGlobal):
            if c.name in self.aliases:
                return self._linear(self.aliases[c.name], ty)
            return _Linear(0, ((c.name, 1),))
        if isinstance(c, CDSOLocalEquivalent):
            return _Linear(0, ((c.name, 1),))
        if isinstance(c, CExpr):
            return self._expr(c, bits)
        if isinstance(c, CBlockAddress):                  # &&label (computed goto)
            return _Linear(0, ((self._block_label(c), 1),))
        raise CompileError(f"unsupported constant {c!r} of type {ty}")

    def _block_label(self, c: CBlockAddress) -> str:
        fn = self.functions.get(c.function)
        names = [b.name for b in fn.blocks] if fn is not None else []
        if c.block not in names:
            raise CompileError(f"blockaddress of an unknown block {c.block} of {c.function}")
        return block_label(c.function, names.index(c.block))

    def _expr(self, c: CExpr, bits: int) -> _Linear:
        op = c.op
        if op == "getelementptr":
            base = self._linear(c.args[0][1], c.args[0][0])
            offset = self.gep_offset(c.extra[0], [self.scalar(v, t) for t, v in c.args[1:]],
                                     [t for t, _ in c.args[1:]])
            return _wrap(base.plus(_Linear(offset)), 32)
        if op in ("bitcast", "addrspacecast", "ptrtoint", "inttoptr", "trunc", "zext"):
            inner = self._linear(c.args[0][1], c.args[0][0])
            if inner.terms and bits < 32:
                raise CompileError("a symbol address truncated in a constant")
            return _wrap(inner, bits)
        if op == "sext":
            t, v = c.args[0]
            inner = self._linear(v, t)
            if inner.terms:
                raise CompileError("sign extension of a symbol address in a constant")
            return _Linear(mask(signed(inner.value, _bits(t)), bits))
        if op in ("add", "sub", "mul", "and", "or", "xor", "shl", "lshr", "ashr"):
            (ta, va), (tb, vb) = c.args
            a, b = self._linear(va, ta), self._linear(vb, tb)
            if op in ("add", "sub"):
                return _wrap(a.plus(b, 1 if op == "add" else -1), bits)
            if op == "mul" and not (a.terms and b.terms):
                return _wrap(a.times(b.value) if not b.terms else b.times(a.value), bits)
            if op == "shl" and a.terms and not b.terms and b.value < bits:
                return _wrap(a.times(1 << b.value), bits)
            if not a.terms and not b.terms:
                return _Linear(mask(_binary(op, a.value, b.value, bits), bits))
            raise CompileError(f"constant expression '{op}' on symbol addresses is not "
                               f"supported")
        raise CompileError(f"constant expression '{op}' is not supported")

    def gep_offset(self, source: Type, indices: list[Word], index_types: list[Type]) -> int:
        """Byte offset of a GEP with constant indices."""
        offset = 0
        ty = source
        for n, (word, ity) in enumerate(zip(indices, index_types)):
            if not word.number:
                raise CompileError("a symbol address used as an array index")
            index = signed(word.value, _bits(ity))
            if n == 0:
                offset += index * self.layout.size(ty)
            elif isinstance(ty, StructT):
                offset += self.layout.offsets(ty)[index]
                ty = ty.fields[index]
            elif isinstance(ty, (ArrayT, VectorT)):
                ty = ty.elem
                offset += index * self.layout.size(ty)
            else:
                raise CompileError(f"cannot index into {ty}")
        return offset

    # -- initialisers ---------------------------------------------------------------------

    def initializer(self, c, ty: Type) -> tuple[bytearray, list[tuple[int, Word]]]:
        """Bytes of a global's initial value and the (offset, Word) relocations in it."""
        out = bytearray(self.layout.size(ty))
        relocs: list[tuple[int, Word]] = []
        self._fill(out, relocs, 0, c, ty)
        return out, relocs

    def _fill(self, out: bytearray, relocs: list, at: int, c, ty: Type) -> None:
        if isinstance(c, (CZero, CUndef, CNull)) or c is None:
            return
        if isinstance(ty, (IntT, PtrT, FloatT)):
            if isinstance(ty, FloatT) and ty.bits > 64:
                raise CompileError(f"{ty} constants are not supported")
            word = self.scalar(c, ty)
            size = self.layout.store_size(ty)
            if word.minus is not None:
                raise CompileError(f"the difference of the addresses of {word.symbol or 0} and "
                                   f"{word.minus} in a static initialiser is not supported "
                                   "(the linker places them independently)")
            if word.symbol is not None:
                if size != 4:
                    raise CompileError("a symbol address stored in a field that is not 32 bits")
                relocs.append((at, word))
                return
            out[at:at + size] = mask(word.value, 8 * size).to_bytes(size, "little")
            return
        if isinstance(c, CBytes):
            out[at:at + len(c.data)] = c.data
            return
        if isinstance(c, CAggregate):
            if isinstance(ty, StructT):
                offsets = self.layout.offsets(ty)
                for (fty, fc), off in zip(c.elems, offsets):
                    self._fill(out, relocs, at + off, fc, fty)
                return
            if isinstance(ty, (ArrayT, VectorT)):
                stride = self.layout.size(ty.elem)
                for k, (ety, ec) in enumerate(c.elems):
                    self._fill(out, relocs, at + k * stride, ec, ety)
                return
        raise CompileError(f"unsupported initialiser {c!r} for type {ty}")


def _wrap(linear: _Linear, bits: int) -> _Linear:
    """The number part reduced to `bits` (the addresses are added by the linker)."""
    return _Linear(mask(linear.value, bits), linear.terms)


def _bits(ty: Type) -> int:
    if isinstance(ty, IntT):
        return ty.bits
    if isinstance(ty, FloatT):
        return ty.bits
    return 32


def _binary(op: str, a: int, b: int, bits: int) -> int:
    if op == "mul":
        return a * b
    if op == "and":
        return a & b
    if op == "or":
        return a | b
    if op == "xor":
        return a ^ b
    if op == "shl":
        return a << b
    if op == "lshr":
        return a >> b
    return signed(a, bits) >> b          # ashr
