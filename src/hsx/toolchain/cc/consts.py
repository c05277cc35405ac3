"""Evaluating LLVM constants: scalars to (symbol, addend) words, initialisers to bytes.

A scalar constant is a 32-bit word that is either a plain number or the address of a
symbol plus an addend (resolved by the linker).  Aggregate initialisers become a byte
string plus the word relocations that the linker fills in.
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
    """A constant value: `value` plus the address of `symbol` when there is one."""

    value: int
    symbol: str | None = None


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
        """A constant of integer/pointer/float type (up to 64 bits, unsigned value)."""
        bits = _bits(ty)
        if isinstance(c, CInt):
            return Word(mask(c.value, bits))
        if isinstance(c, CFloat):
            return Word(c.bits)
        if isinstance(c, (CNull, CZero, CUndef)) or c is None:
            return Word(0)
        if isinstance(c, CGlobal):
            if c.name in self.aliases:
                return self.scalar(self.aliases[c.name], ty)
            return Word(0, c.name)
        if isinstance(c, CDSOLocalEquivalent):
            return Word(0, c.name)
        if isinstance(c, CExpr):
            return self._expr(c, bits)
        if isinstance(c, CBlockAddress):                  # &&label (computed goto)
            return Word(0, self._block_label(c))
        raise CompileError(f"unsupported constant {c!r} of type {ty}")

    def _block_label(self, c: CBlockAddress) -> str:
        fn = self.functions.get(c.function)
        names = [b.name for b in fn.blocks] if fn is not None else []
        if c.block not in names:
            raise CompileError(f"blockaddress of an unknown block {c.block} of {c.function}")
        return block_label(c.function, names.index(c.block))

    def _expr(self, c: CExpr, bits: int) -> Word:
        op = c.op
        if op == "getelementptr":
            base = self.scalar(c.args[0][1], c.args[0][0])
            offset = self.gep_offset(c.extra[0], [self.scalar(v, t) for t, v in c.args[1:]],
                                     [t for t, _ in c.args[1:]])
            return Word(mask(base.value + offset, 32), base.symbol)
        if op in ("bitcast", "addrspacecast", "ptrtoint", "inttoptr", "trunc", "zext"):
            inner = self.scalar(c.args[0][1], c.args[0][0])
            if inner.symbol is not None:
                if bits < 32:
                    raise CompileError("a symbol address truncated in a constant")
                return inner
            return Word(mask(inner.value, bits))
        if op == "sext":
            t, v = c.args[0]
            inner = self.scalar(v, t)
            if inner.symbol is not None:
                raise CompileError("sign extension of a symbol address in a constant")
            return Word(mask(signed(inner.value, _bits(t)), bits))
        if op in ("add", "sub", "mul", "and", "or", "xor", "shl", "lshr", "ashr"):
            (ta, va), (tb, vb) = c.args
            a, b = self.scalar(va, ta), self.scalar(vb, tb)
            if op in ("add", "sub") and b.symbol is None:
                value = a.value + b.value if op == "add" else a.value - b.value
                return Word(mask(value, bits), a.symbol)
            if op == "add" and a.symbol is None:
                return Word(mask(a.value + b.value, bits), b.symbol)
            if op == "sub" and a.symbol is not None and a.symbol == b.symbol:
                return Word(mask(a.value - b.value, bits))
            if a.symbol is None and b.symbol is None:
                return Word(mask(_binary(op, a.value, b.value, bits), bits))
            raise CompileError(f"constant expression '{op}' on symbol addresses is not "
                               f"supported")
        raise CompileError(f"constant expression '{op}' is not supported")

    def gep_offset(self, source: Type, indices: list[Word], index_types: list[Type]) -> int:
        """Byte offset of a GEP with constant indices."""
        offset = 0
        ty = source
        for n, (word, ity) in enumerate(zip(indices, index_types)):
            if word.symbol is not None:
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
