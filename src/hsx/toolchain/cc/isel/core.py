"""The selector's state and the helpers every lowering uses: emitting machine
instructions, virtual registers for IR values (constants materialised on use), and the
zero/sign extension of narrow integers.

Every IR value lives in one or more 32-bit virtual registers: i1..i32, pointers and
float in one, i64 and double in two (low word first), first-class aggregates in the
concatenation of their scalar fields.  Integers narrower than 32 bits carry unspecified
upper bits (i1 is kept as exactly 0 or 1); operations whose result depends on those
bits (compares, right shifts, division, extension) extend their operands first.
"""
from __future__ import annotations

from ..consts import ConstEvaluator, Word, mask, signed
from ..irtext import CAggregate, CUndef, CZero
from ..mir import MBlock, MFunction, MInst, VReg, fits12
from ..naming import symbol_name
from ..ir import Block, CompileError, Const, Function, Instr, Module, Value
from ..types import ArrayT, FloatT, IntT, PtrT, StructT, Type, VectorT, words_of


def int_bits(ty: Type) -> int:
    if isinstance(ty, IntT):
        return ty.bits
    if isinstance(ty, PtrT):
        return 32
    if isinstance(ty, FloatT):
        return ty.bits
    raise CompileError(f"values of type {ty} are not supported")




class SelectorBase:
    """State of the lowering of one IR function, and the helpers shared by every
    instruction's lowering (the `op_*` and `intr_*` methods of the other modules)."""

    def __init__(self, module: Module, fn: Function, evaluator: ConstEvaluator,
                 hard_float: bool = True) -> None:
        self.module = module
        self.hard_float = hard_float     # float/double/i64 division as VM instructions (fpu.py)
        self.fn = fn
        self.layout = module.layout
        self.ev = evaluator
        self.mf = MFunction(fn.name, symbol_name(fn.name), not fn.local, loc=fn.loc)
        self.vals: dict[Value, list] = {}
        self.slots: dict[Instr, object] = {}
        self.known: dict[VReg, tuple[str, int]] = {}     # vreg -> ('z'|'s', bits) extension
        self.users: dict[Value, list[Instr]] = {}
        self.fused: set[Instr] = set()
        self.folded: set[Instr] = set()      # constant-offset GEPs folded into addressing
        self.mblocks: dict[Block, MBlock] = {}
        self.cur: MBlock | None = None
        self.pending_edges: list[MBlock] = []
        self.loc = None
        self.label_count = 0

    # -- helpers ------------------------------------------------------------------------

    def error(self, message: str, instr: Instr | None = None) -> CompileError:
        loc = instr.loc if instr is not None and instr.loc else self.loc or self.fn.loc
        where = f"{loc.file}:{loc.line}" if loc else f"in function '{self.fn.name}'"
        return CompileError(message, where)

    def emit(self, op: str, defs=(), uses=(), args=(), clobbers=(), early=False) -> MInst:
        inst = MInst(op, list(defs), list(uses), tuple(args), tuple(clobbers), early, self.loc)
        self.cur.insts.append(inst)
        return inst

    def new(self) -> VReg:
        return self.mf.vreg()

    def new_block(self, loc=None) -> MBlock:
        self.label_count += 1
        block = MBlock(f".L{self.mf.symbol}.{self.label_count}", loc=loc)
        return block

    def mov(self, dst, src) -> None:
        if dst is not src:
            self.emit("mov", [dst], [src])

    def li(self, value: int, dst: VReg | None = None) -> VReg:
        d = dst or self.new()
        value = mask(value, 32)
        self.emit("li", [d], [], (signed(value, 32),))
        if dst is None:
            s = signed(value, 32)
            if 0 <= value <= 0xFF:
                self.known[d] = ("z", 8 if value > 1 else 1)
            elif 0 <= value <= 0xFFFF:
                self.known[d] = ("z", 16)
            elif -128 <= s < 0:
                self.known[d] = ("s", 8)
            elif -32768 <= s < 0:
                self.known[d] = ("s", 16)
        return d

    def alu(self, mnem: str, a, b, dst: VReg | None = None) -> VReg:
        d = dst or self.new()
        self.emit("alu", [d], [a, b], (mnem,))
        return d

    def alui(self, mnem: str, a, imm: int, dst: VReg | None = None) -> VReg:
        d = dst or self.new()
        self.emit("alui", [d], [a], (mnem, imm))
        if dst is None:              # upper bits known zero: no extension needed later
            if mnem == "ANDI" and imm >= 0:
                self.known[d] = ("z", max(imm.bit_length(), 1))
            elif mnem == "LSRI" and 0 < imm & 31:
                self.known[d] = ("z", 32 - (imm & 31))
        return d

    # -- values -------------------------------------------------------------------------

    def words(self, ty: Type) -> int:
        if isinstance(ty, (StructT, ArrayT)):
            return sum(self.words(t) for _, t in self.scalars(ty))
        n = words_of(ty)
        if n == 0:
            raise self.error(f"values of type {ty} are not supported")
        return n

    def scalars(self, ty: Type, base: int = 0) -> list[tuple[int, Type]]:
        """(byte offset, scalar type) of every scalar field of an aggregate, in order."""
        if isinstance(ty, StructT):
            out = []
            for off, f in zip(self.layout.offsets(ty), ty.fields):
                out.extend(self.scalars(f, base + off))
            return out
        if isinstance(ty, ArrayT):
            stride = self.layout.size(ty.elem)
            out = []
            for k in range(ty.count):
                out.extend(self.scalars(ty.elem, base + k * stride))
            return out
        if isinstance(ty, VectorT):
            raise self.error("vector values are not supported")
        return [(base, ty)]

    def arg_align(self, ty: Type) -> int:
        """Stack alignment of an argument: its natural alignment, at least 4, at most 8."""
        return max(4, min(8, self.layout.align(ty)))

    def get(self, value: Value) -> list:
        """The registers holding `value` (constants and frame addresses materialised)."""
        regs = self.vals.get(value)
        if regs is not None:
            return regs
        if isinstance(value, Const):
            return self.materialize(value)
        if isinstance(value, Instr):
            if value.opcode == "alloca" and value in self.slots:
                d = self.new()
                self.emit("frameaddr", [d], [], (self.slots[value], 0))
                return [d]
            regs = [self.new() for _ in range(self.words(value.ty))]   # forward reference
            self.vals[value] = regs
            return regs
        raise self.error(f"unknown value {value!r}")

    def get1(self, value: Value) -> VReg:
        regs = self.get(value)
        if len(regs) != 1:
            raise self.error(f"expected a 32-bit value, got {value.ty}")
        return regs[0]

    def define(self, instr: Instr, regs: list) -> None:
        """Bind the result of `instr` (moving into registers handed out earlier to a
        forward reference)."""
        existing = self.vals.get(instr)
        if existing is None:
            self.vals[instr] = list(regs)
            return
        for d, s in zip(existing, regs):
            self.mov(d, s)

    def materialize(self, value: Const) -> list:
        ty = value.ty
        c = value.c
        if isinstance(ty, (StructT, ArrayT)):
            out = []
            for off, sty in self.scalars(ty):
                out.extend(self.materialize(Const(sty, self._field_constant(c, ty, off))))
            return out
        if isinstance(ty, VectorT):
            raise self.error("vector constants are not supported")
        try:
            word = self.ev.scalar(c, ty)
        except CompileError as exc:
            raise self.error(exc.message) from None
        if not word.number:
            return [self._address_arithmetic(word)]
        bits = int_bits(ty)
        if bits <= 32:
            return [self.li(word.value)]
        if bits <= 64:
            return [self.li(word.value & 0xFFFFFFFF), self.li(word.value >> 32)]
        raise self.error(f"constants of type {ty} are not supported")

    def _address_arithmetic(self, word: Word):
        """A register with `word`: a symbol's address plus a number (one LDI32), or a
        difference of two symbols' addresses, which only the linker knows: computed."""
        if word.symbol is not None:
            d = self.new()
            self.emit("la", [d], [], (symbol_name(word.symbol), word.value))
        else:
            d = self.li(word.value)
        if word.minus is None:
            return d
        m, out = self.new(), self.new()
        self.emit("la", [m], [], (symbol_name(word.minus), 0))
        self.emit("alu", [out], [d, m], ("SUB",))
        return out

    def _field_constant(self, c, ty: Type, offset: int):
        """The scalar constant at byte `offset` inside an aggregate constant."""
        if isinstance(c, (CZero, CUndef)) or c is None:
            return CZero()
        if isinstance(ty, StructT) and isinstance(c, CAggregate):
            for off, (fty, fc) in zip(self.layout.offsets(ty), c.elems):
                size = self.layout.size(fty)
                if off <= offset < off + max(size, 1):
                    return self._field_constant(fc, fty, offset - off)
        if isinstance(ty, ArrayT) and isinstance(c, CAggregate):
            stride = self.layout.size(ty.elem)
            k = offset // stride
            ety, ec = c.elems[k]
            return self._field_constant(ec, ety, offset - k * stride)
        if isinstance(ty, (IntT, PtrT, FloatT)):
            return c
        raise self.error(f"unsupported aggregate constant of type {ty}")

    def const_of(self, value: Value) -> Word | None:
        if isinstance(value, Const) and isinstance(value.ty, (IntT, PtrT)):
            try:
                return self.ev.scalar(value.c, value.ty)
            except CompileError:
                return None
        return None

    def imm_of(self, value: Value, bits: int, sign: bool) -> int | None:
        """A constant operand as an integer (sign- or zero-extended from `bits`)."""
        word = self.const_of(value)
        if word is None or not word.number:
            return None
        return signed(word.value, bits) if sign else mask(word.value, bits)

    # -- extension ----------------------------------------------------------------------

    def zext(self, r, bits: int):
        if bits >= 32:
            return r
        k = self.known.get(r)
        if k and k[0] == "z" and k[1] <= bits:
            return r
        if (1 << bits) - 1 <= 2047:
            d = self.alui("ANDI", r, (1 << bits) - 1)
        else:
            d = self.alui("LSRI", self.alui("LSLI", r, 32 - bits), 32 - bits)
        self.known[d] = ("z", bits)
        return d

    def sext(self, r, bits: int):
        if bits >= 32:
            return r
        k = self.known.get(r)
        if k and ((k[0] == "s" and k[1] <= bits) or (k[0] == "z" and k[1] < bits)):
            return r
        d = self.alui("ASRI", self.alui("LSLI", r, 32 - bits), 32 - bits)
        self.known[d] = ("s", bits)
        return d

    def ext(self, r, bits: int, sign: bool):
        return self.sext(r, bits) if sign else self.zext(r, bits)

    def ext64(self, regs: list, bits: int, sign: bool) -> list:
        """Clear or sign-fill the bits above `bits` of a two-word value."""
        if bits >= 64:
            return regs
        lo, hi = regs
        return [lo, self.ext(hi, bits - 32, sign)]

    def operand_ext(self, value: Value, bits: int, sign: bool):
        """A 32-bit operand extended from `bits`, or an int when it is a small constant."""
        imm = self.imm_of(value, bits, sign)
        if imm is not None:
            return imm
        return self.ext(self.get1(value), bits, sign)

    def reg_of(self, operand):
        return self.li(operand) if isinstance(operand, int) else operand

    def _add_imm(self, r, imm: int):
        if fits12(imm):
            return self.alui("ADDI", r, imm)
        return self.alu("ADD", r, self.li(imm))

    # -- dispatch -----------------------------------------------------------------------

    def lower(self, i: Instr) -> None:
        handler = getattr(self, "op_" + i.opcode, None)
        if handler is None:
            raise self.error(f"unsupported LLVM instruction '{i.opcode}'", i)
        handler(i)
