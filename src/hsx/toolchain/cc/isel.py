"""Instruction selection: one IR function to machine IR over virtual registers.

Every IR value lives in one or more 32-bit virtual registers: i1..i32, pointers and
float in one, i64 and double in two (low word first), first-class aggregates in the
concatenation of their scalar fields.  Integers narrower than 32 bits carry unspecified
upper bits (i1 is kept as exactly 0 or 1); operations whose result depends on those
bits (compares, right shifts, division, extension) extend their operands first.

Calls follow docs/abi.md: argument words in R1..R5, the rest in the outgoing area at
SP, results in R0 (R1).  The register allocator sees argument and result registers as
physical registers with short fixed live ranges, so argument set-up can never clobber
a value still needed (no sequential-move hazard).
"""
from __future__ import annotations

from .consts import ConstEvaluator, Word, mask, signed
from .irtext import CAggregate, CGlobal, CInt, CUndef, CZero
from .mir import (ARG_REGS, CALLER_SAVED, CONDITIONS, FP, R, SP, SWAPPED, MBlock, MFunction,
                  MInst, PReg, VReg, fits12)
from .reader import Argument, Block, CompileError, Const, Function, Instr, Module, Value
from .types import (ArrayT, FloatT, FuncT, IntT, PtrT, StructT, Type, VectorT, VoidT,
                    words_of)
from .naming import symbol_name
from . import fpu

# Soft-float and 64-bit helper routines in lib/ (standard libgcc names where one exists).
FLOAT_BINOPS = {
    ("fadd", 32): "__addsf3", ("fsub", 32): "__subsf3", ("fmul", 32): "__mulsf3",
    ("fdiv", 32): "__divsf3", ("frem", 32): "fmodf",
    ("fadd", 64): "__adddf3", ("fsub", 64): "__subdf3", ("fmul", 64): "__muldf3",
    ("fdiv", 64): "__divdf3", ("frem", 64): "fmod",
}
HALF_BINOPS = {"fadd": "FADD", "fsub": "FSUB", "fmul": "FMUL", "fdiv": "FDIV"}
I64_LIBCALLS = {"sdiv": "__divdi3", "udiv": "__udivdi3", "srem": "__moddi3",
                "urem": "__umoddi3", "shl": "__ashldi3", "lshr": "__lshrdi3",
                "ashr": "__ashrdi3"}
# fcmp predicate -> bits of the __hsx_cmp?f2 result (1 less, 2 greater, 4 equal,
# 8 unordered) for which it is true.
FCMP_MASKS = {"oeq": 4, "ogt": 2, "oge": 6, "olt": 1, "ole": 5, "one": 3, "ord": 7,
              "ueq": 12, "ugt": 10, "uge": 14, "ult": 9, "ule": 13, "une": 11, "uno": 8}
IGNORED_INTRINSICS = ("llvm.lifetime.", "llvm.dbg.", "llvm.assume", "llvm.va_end",
                      "llvm.experimental.noalias.scope.decl", "llvm.invariant.",
                      "llvm.donothing", "llvm.sideeffect", "llvm.prefetch",
                      "llvm.var.annotation", "llvm.codeview.", "llvm.pseudoprobe")


def int_bits(ty: Type) -> int:
    if isinstance(ty, IntT):
        return ty.bits
    if isinstance(ty, PtrT):
        return 32
    if isinstance(ty, FloatT):
        return ty.bits
    raise CompileError(f"values of type {ty} are not supported")


class ArgLocation:
    """Where one argument travels: registers (a list) or a stack offset."""

    def __init__(self, regs: list[PReg] | None = None, stack: int | None = None) -> None:
        self.regs = regs
        self.stack = stack


def assign_arguments(word_counts: list[int], aligns: list[int], fixed: int
                     ) -> tuple[list[ArgLocation], int, int]:
    """The ABI's argument placement (docs/abi.md).

    Fixed arguments take R1..R5 in order while they fit (a 64-bit one needs two
    consecutive registers); once one goes to the stack all later ones do.  Variadic
    arguments always go to the stack, each at its natural alignment.  Returns the
    locations, the bytes of fixed stack arguments and the total stack bytes."""
    locations = []
    next_reg = 0
    on_stack = False
    offset = 0
    fixed_bytes = 0
    for index, (words, align) in enumerate(zip(word_counts, aligns)):
        variadic = index >= fixed
        if not variadic and not on_stack and next_reg + words <= len(ARG_REGS):
            locations.append(ArgLocation(regs=list(ARG_REGS[next_reg:next_reg + words])))
            next_reg += words
            continue
        if not variadic:
            on_stack = True
        offset = (offset + align - 1) // align * align
        locations.append(ArgLocation(stack=offset))
        offset += 4 * words
        if not variadic:
            fixed_bytes = offset
    return locations, fixed_bytes, offset


PRINTF_FLOAT = "__hsx_printf_float"


class Selector:
    """Lowers one IR function."""

    def __init__(self, module: Module, fn: Function, evaluator: ConstEvaluator,
                 hard_float: bool = True) -> None:
        self.module = module
        self.hard_float = hard_float     # float/double/i64 division as VM instructions (fpu.py)
        self.fn = fn
        self.layout = module.layout
        self.ev = evaluator
        self.mf = MFunction(fn.name, symbol_name(fn.name), not fn.local, loc=None)
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
        if word.symbol is not None:
            d = self.new()
            self.emit("la", [d], [], (symbol_name(word.symbol), word.value))
            return [d]
        bits = int_bits(ty)
        if bits <= 32:
            return [self.li(word.value)]
        if bits <= 64:
            return [self.li(word.value & 0xFFFFFFFF), self.li(word.value >> 32)]
        raise self.error(f"constants of type {ty} are not supported")

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
        if word is None or word.symbol is not None:
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

    # -- function -----------------------------------------------------------------------

    def run(self) -> MFunction:
        fn = self.fn
        if fn.subprogram is not None:
            self.mf.loc = fn.subprogram
        for block in fn.blocks:
            self.mblocks[block] = MBlock(f".L{self.mf.symbol}.b{len(self.mblocks)}")
            for i in block.instrs:
                for op in i.ops:
                    if isinstance(op, Instr):
                        self.users.setdefault(op, []).append(i)
        self._plan_allocas()
        self._plan_address_folding()
        self.cur = self.mblocks[fn.blocks[0]]
        self._entry()
        for block in fn.blocks:
            self.cur = self.mblocks[block]
            self.mf.blocks.append(self.cur)
            self._phis(block)
            for instr in block.instrs:
                if instr.opcode == "phi" or instr in self.fused or instr in self.folded:
                    continue
                self.loc = instr.loc
                self.lower(instr)
        return self.mf

    def _plan_allocas(self) -> None:
        for block in self.fn.blocks:
            for i in block.instrs:
                if i.opcode != "alloca":
                    continue
                count = self.imm_of(i.ops[0], int_bits(i.ops[0].ty), False)
                if count is None:
                    continue                       # dynamic: lowered in place
                size = self.layout.size(i.src_ty) * count
                self.slots[i] = self.mf.slot(size, max(self.layout.align(i.src_ty), 4),
                                             name=i.name)
                self.mf.debug.setdefault("alloca_slots", {})[i] = self.slots[i]

    def _plan_address_folding(self) -> None:
        """GEPs with constant offsets used only as load/store addresses are not computed
        on their own: the offset goes into each access."""
        for block in self.fn.blocks:
            for i in block.instrs:
                if i.opcode != "getelementptr" or isinstance(i.ty, VectorT):
                    continue
                users = self.users.get(i, [])
                if not users or self._gep_constant_offset(i) is None:
                    continue
                if all((u.opcode == "load" and u.ops[0] is i) or
                       (u.opcode == "store" and u.ops[1] is i and u.ops[0] is not i)
                       for u in users):
                    self.folded.add(i)

    def _entry(self) -> None:
        fn = self.fn
        counts = [self.words(p.ty) for p in fn.params]
        aligns = [self.arg_align(p.ty) for p in fn.params]
        locations, fixed_bytes, _ = assign_arguments(counts, aligns, len(fn.params))
        self.mf.incoming_stack = fixed_bytes
        in_regs = [r for loc in locations if loc.regs for r in loc.regs]
        self.emit("entry", in_regs, [])
        for param, loc in zip(fn.params, locations):
            if loc.regs:
                regs = [self.new() for _ in loc.regs]
                for d, s in zip(regs, loc.regs):
                    self.mov(d, s)
            else:
                regs = []
                for k in range(counts[param.index]):
                    d = self.new()
                    self.emit("load", [d], [FP], ("LD", 8 + loc.stack + 4 * k, None))
                    regs.append(d)
            self.vals[param] = regs

    # -- phis and edges -----------------------------------------------------------------

    def _phis(self, block: Block) -> None:
        for i in block.instrs:
            if i.opcode != "phi":
                break
            if i not in self.vals:
                self.vals[i] = [self.new() for _ in range(self.words(i.ty))]

    def edge_copies(self, pred: Block, succ: Block) -> None:
        """Parallel copies for the phis of `succ` on the edge from `pred` (emitted at the
        current position)."""
        pairs = []
        for i in succ.instrs:
            if i.opcode != "phi":
                break
            incoming = [v for v, b in i.incoming if b is pred]
            if not incoming:
                continue
            dst = self.get(i)
            pairs.append((dst, incoming[0]))
        if not pairs:
            return
        phi_regs = {id(r) for dst, _ in pairs for r in dst}
        staged = []
        for dst, value in pairs:
            src = self.get(value)
            if any(id(r) in phi_regs for r in src):
                tmp = [self.new() for _ in src]
                for t, s in zip(tmp, src):
                    self.mov(t, s)
                src = tmp
            staged.append((dst, src))
        for dst, src in staged:
            for d, s in zip(dst, src):
                self.mov(d, s)

    def has_phis(self, block: Block) -> bool:
        return bool(block.instrs) and block.instrs[0].opcode == "phi"

    def target(self, pred: Block, succ: Block, multi: bool) -> MBlock:
        """The machine block to branch to for the edge pred -> succ (a new edge block
        holding the phi copies when the edge is critical)."""
        if not multi or not self.has_phis(succ):
            return self.mblocks[succ]
        edge = self.new_block()
        saved = self.cur
        self.cur = edge
        self.edge_copies(pred, succ)
        self.emit("br", [], [], (self.mblocks[succ],))
        edge.succs = [self.mblocks[succ]]
        self.cur = saved
        self.pending_edges.append(edge)
        return edge

    # -- dispatch -----------------------------------------------------------------------

    def lower(self, i: Instr) -> None:
        handler = getattr(self, "op_" + i.opcode, None)
        if handler is None:
            raise self.error(f"unsupported LLVM instruction '{i.opcode}'", i)
        handler(i)

    # -- terminators --------------------------------------------------------------------

    def _finish(self, succs: list[MBlock], edges: list[MBlock]) -> None:
        self.cur.succs = succs
        index = self.mf.blocks.index(self.cur)
        for k, edge in enumerate(edges):
            self.mf.blocks.insert(index + 1 + k, edge)

    def op_br(self, i: Instr) -> None:
        block = i.block
        self.pending_edges: list[MBlock] = []
        if len(i.targets) == 1:
            succ = i.targets[0]
            self.edge_copies(block, succ)
            self.emit("br", [], [], (self.mblocks[succ],))
            self._finish([self.mblocks[succ]], [])
            return
        t_ir, f_ir = i.targets
        t = self.target(block, t_ir, True)
        f = self.target(block, f_ir, True)
        cond = i.ops[0]
        if cond in self.fused:
            self._compare_branch(cond, t, f)
        else:
            c = self.get1(cond)
            self.emit("cbr", [], [c], ("ne", 0, t, f))
        self._finish([t, f], self.pending_edges)

    def _compare_branch(self, cmp: Instr, t: MBlock, f: MBlock) -> None:
        self.loc = cmp.loc or self.loc
        cond, a, b = self._compare_operands(cmp)
        if isinstance(b, int):
            self.emit("cbr", [], [a], (cond, b, t, f))
        else:
            self.emit("cbr", [], [a, b], (cond, None, t, f))

    def op_switch(self, i: Instr) -> None:
        """A jump table when the cases are dense, else a chain of compares."""
        self.pending_edges = []
        block = i.block
        bits = int_bits(i.ops[0].ty)
        if bits > 64:
            raise self.error(f"switch on a {bits}-bit value is not supported", i)
        default = self.target(block, i.targets[0], True)
        if bits > 32:
            value = self.ext64(self.get(i.ops[0]), bits, False)
            for v, b in i.cases:
                case = mask(v, bits)
                equal = self.new()
                self.emit("setcc64", [equal], value + [self.li(case & 0xFFFFFFFF),
                                                       self.li(case >> 32)], ("eq",))
                nxt = self.new_block()
                self.emit("cbr", [], [equal], ("ne", 0, self.target(block, b, True), nxt))
                self._continue_in(nxt, [self.cur.insts[-1].args[2], nxt])
            self.emit("br", [], [], (default,))
            self.cur.succs = [default]
            self._finish(self.cur.succs, self.pending_edges)
            return
        value = self.zext(self.get1(i.ops[0]), bits)
        cases = [(mask(v, bits), self.target(block, b, True)) for v, b in i.cases]
        values = sorted(v for v, _ in cases)
        if values and len(cases) >= 4 and values[-1] - values[0] < min(3 * len(cases) + 8, 4096):
            self._jump_table(value, cases, default)
        else:
            for v, b in cases:
                self._chain_link(value, v, b)
            self.emit("br", [], [], (default,))
            self.cur.succs = [default]
        self._finish(self.cur.succs, self.pending_edges)

    def _chain_link(self, value, case: int, dest: MBlock) -> None:
        """`if value == case goto dest`, continuing in a new block."""
        nxt = self.new_block()
        imm = signed(case, 32)
        if fits12(imm):
            self.emit("cbr", [], [value], ("eq", imm, dest, nxt))
        else:
            self.emit("cbr", [], [value, self.li(case)], ("eq", None, dest, nxt))
        self._continue_in(nxt, [dest, nxt])

    def _continue_in(self, nxt: MBlock, succs: list) -> None:
        self.cur.succs = succs
        self.mf.blocks.insert(self.mf.blocks.index(self.cur) + 1, nxt)
        self.cur = nxt

    def _jump_table(self, value, cases: list, default: MBlock) -> None:
        low = min(v for v, _ in cases)
        span = max(v for v, _ in cases) - low + 1
        table = [default] * span
        for v, b in cases:
            table[v - low] = b
        index = value if low == 0 else self._add_imm(value, -low)
        cont = self.new_block()
        if fits12(span):
            self.emit("cbr", [], [index], ("uge", span, default, cont))
        else:
            self.emit("cbr", [], [index, self.li(span)], ("uge", None, default, cont))
        self._continue_in(cont, [default, cont])
        label = f"{self.mf.symbol}$jt{len(self.mf.jump_tables)}"
        self.mf.jump_tables.append((label, table))
        base = self.new()
        self.emit("la", [base], [], (label, 0))
        addr = self.alu("ADD", self.alui("LSLI", index, 2), base)
        dest = self.new()
        self.emit("load", [dest], [addr], ("LD", 0, None))
        targets = list(dict.fromkeys(table))
        self.emit("jmpr", [], [dest], (tuple(targets),))
        self.cur.succs = targets

    def _add_imm(self, r, imm: int):
        if fits12(imm):
            return self.alui("ADDI", r, imm)
        return self.alu("ADD", r, self.li(imm))

    def op_indirectbr(self, i: Instr) -> None:
        raise self.error("computed goto is not supported", i)

    def op_ret(self, i: Instr) -> None:
        uses = []
        if i.ops:
            regs = self.get(i.ops[0])
            if len(regs) > 2:
                raise self.error("returning an aggregate of more than 64 bits in registers "
                                 "is not supported", i)
            for k, r in enumerate(regs):
                self.mov(R[k], r)
                uses.append(R[k])
        self.emit("ret", [], uses)
        self.cur.succs = []

    def op_unreachable(self, i: Instr) -> None:
        self.emit("trap", [], [], (2,))
        self.cur.succs = []

    # -- integer arithmetic -------------------------------------------------------------

    _IMM_FORMS = {"add": "ADDI", "and": "ANDI", "or": "ORI", "xor": "XORI", "mul": "MULI",
                  "shl": "LSLI"}
    _REG_FORMS = {"add": "ADD", "sub": "SUB", "mul": "MUL", "and": "AND", "or": "OR",
                  "xor": "XOR", "shl": "LSL", "lshr": "LSR", "ashr": "ASR", "sdiv": "DIV",
                  "udiv": "DIVU", "srem": "REM", "urem": "REMU"}
    _COMMUTATIVE = {"add", "mul", "and", "or", "xor"}

    def _binary(self, i: Instr) -> None:
        ty = i.ty
        if isinstance(ty, VectorT):
            raise self.error("vector arithmetic is not supported", i)
        bits = int_bits(ty)
        if bits > 64:
            raise self.error(f"{bits}-bit integer arithmetic is not supported", i)
        if bits > 32:
            self.define(i, self._binary64(i, bits))
            return
        op = i.opcode
        a, b = i.ops
        sign = op in ("ashr", "sdiv", "srem")
        needs_ext = op in ("lshr", "ashr", "sdiv", "udiv", "srem", "urem")
        if needs_ext:
            ra = self.operand_ext(a, bits, sign)
            rb = self.operand_ext(b, bits, sign) if op not in ("lshr", "ashr") \
                else self._shift_amount(b, bits)
        else:
            sign_imm = bits > 1                  # i1 stays exactly 0 or 1
            ra = self.imm_of(a, bits, sign_imm) if op in self._COMMUTATIVE else None
            ra = ra if ra is not None and fits12(ra) else self.get1(a)
            rb = self.imm_of(b, bits, sign_imm)
            rb = rb if rb is not None else self.get1(b)
            if op == "shl" and isinstance(rb, int):
                rb = mask(rb, 5)
        if isinstance(ra, int) and not isinstance(rb, int) and op in self._COMMUTATIVE:
            ra, rb = rb, ra
        d = self._alu_op(op, ra, rb)
        if bits == 1 and op in ("add", "sub", "mul", "shl"):
            d = self.alui("ANDI", d, 1)
        elif bits < 32 and op in ("lshr", "udiv", "urem") and not isinstance(d, int):
            self.known[d] = ("z", bits)
        if bits == 1:
            self.known[d] = ("z", 1)
        self.define(i, [d])

    def _shift_amount(self, value: Value, bits: int):
        imm = self.imm_of(value, bits, False)
        return mask(imm, 5) if imm is not None else self.get1(value)

    def _alu_op(self, op: str, a, b):
        """Emit `a op b` (a a register; b a register or an int)."""
        a = self.reg_of(a)
        if isinstance(b, int):
            if op == "sub" and fits12(-b):
                return self.alui("ADDI", a, -b)
            if op == "udiv" and b > 0 and b & (b - 1) == 0:
                return self.alui("LSRI", a, b.bit_length() - 1)
            if op == "urem" and b > 0 and b & (b - 1) == 0 and fits12(b - 1):
                return self.alui("ANDI", a, b - 1)
            if op == "mul" and b > 0 and b & (b - 1) == 0:
                return self.alui("LSLI", a, b.bit_length() - 1)
            if op in ("lshr", "ashr"):
                return self.alui("LSRI" if op == "lshr" else "ASRI", a, b)
            form = self._IMM_FORMS.get(op)
            if form and fits12(b):
                return self.alui(form, a, b)
            b = self.li(b)
        return self.alu(self._REG_FORMS[op], a, b)

    op_add = op_sub = op_mul = op_and = op_or = op_xor = _binary
    op_shl = op_lshr = op_ashr = op_sdiv = op_udiv = op_srem = op_urem = _binary

    def _binary64(self, i: Instr, bits: int) -> list:
        op = i.opcode
        a, b = i.ops
        if op in ("sdiv", "srem", "ashr"):
            ra = self.ext64(self.get(a), bits, True)
        elif op in ("udiv", "urem", "lshr"):
            ra = self.ext64(self.get(a), bits, False)
        else:
            ra = self.get(a)
        if op in ("shl", "lshr", "ashr"):
            amount = self.imm_of(b, bits, False)
            if amount is not None:
                return self._shift64_const(op, ra, amount & 63)
            return self.libcall(I64_LIBCALLS[op], [ra[0], ra[1], self.get(b)[0]], 2)
        if op in ("sdiv", "srem", "udiv", "urem"):
            rb = self.ext64(self.get(b), bits, op[0] == "s")
            if self.hard_float:
                return fpu.divide64(self, op, ra, rb)
            return self.libcall(I64_LIBCALLS[op], [ra[0], ra[1], rb[0], rb[1]], 2)
        rb = self.get(b)
        if op in ("add", "sub"):
            d = [self.new(), self.new()]
            self.emit(op + "64", d, [ra[0], ra[1], rb[0], rb[1]], early=True)
            return d
        if op in ("and", "or", "xor"):
            mnem = op.upper()
            return [self.alu(mnem, ra[0], rb[0]), self.alu(mnem, ra[1], rb[1])]
        if op == "mul":
            lo = self.alu("MUL", ra[0], rb[0])
            hi = self.alu("MULHU", ra[0], rb[0])
            hi = self.alu("ADD", hi, self.alu("MUL", ra[0], rb[1]))
            hi = self.alu("ADD", hi, self.alu("MUL", ra[1], rb[0]))
            return [lo, hi]
        raise self.error(f"64-bit '{op}' is not supported", i)

    def _shift64_const(self, op: str, a: list, n: int) -> list:
        lo, hi = a
        if n == 0:
            return [lo, hi]
        if op == "shl":
            if n >= 32:
                return [self.li(0), self.alui("LSLI", lo, n - 32) if n > 32 else lo]
            return [self.alui("LSLI", lo, n),
                    self.alu("OR", self.alui("LSLI", hi, n), self.alui("LSRI", lo, 32 - n))]
        if n >= 32:
            if op == "lshr":
                return [self.alui("LSRI", hi, n - 32) if n > 32 else hi, self.li(0)]
            return [self.alui("ASRI", hi, n - 32) if n > 32 else hi, self.alui("ASRI", hi, 31)]
        low = self.alu("OR", self.alui("LSRI", lo, n), self.alui("LSLI", hi, 32 - n))
        return [low, self.alui("LSRI" if op == "lshr" else "ASRI", hi, n)]

    # -- compares and select ------------------------------------------------------------

    def _compare_operands(self, cmp: Instr):
        """(condition, register, register-or-imm) for an integer icmp of <= 32 bits."""
        pred = cmp.pred
        a, b = cmp.ops
        bits = int_bits(a.ty)
        sign = pred.startswith("s")
        ia = self.imm_of(a, bits, sign)
        ib = self.imm_of(b, bits, sign)
        if ia is not None and ib is None:
            a, b, pred, ib = b, a, SWAPPED[pred], ia
        ra = self.ext(self.get1(a), bits, sign)
        if ib is not None and fits12(ib):
            return pred, ra, ib
        if ib is not None:
            return pred, ra, self.li(ib)
        return pred, ra, self.ext(self.get1(b), bits, sign)

    def _fusable(self, i: Instr) -> bool:
        users = self.users.get(i, [])
        return (len(users) == 1 and users[0].block is i.block and users[0].opcode == "br"
                and int_bits(i.ops[0].ty) <= 32 and not isinstance(i.ops[0].ty, VectorT))

    def op_icmp(self, i: Instr) -> None:
        if isinstance(i.ops[0].ty, VectorT):
            raise self.error("vector compares are not supported", i)
        bits = int_bits(i.ops[0].ty)
        if bits > 64:
            raise self.error(f"{bits}-bit compares are not supported", i)
        if bits > 32:
            sign = i.pred.startswith("s")
            a = self.ext64(self.get(i.ops[0]), bits, sign)
            b = self.ext64(self.get(i.ops[1]), bits, sign)
            d = self.new()
            self.emit("setcc64", [d], a + b, (i.pred,))
            self.known[d] = ("z", 1)
            self.define(i, [d])
            return
        if self._fusable(i) and i not in self.vals:
            self.fused.add(i)
            return
        cond, a, b = self._compare_operands(i)
        d = self.new()
        if isinstance(b, int):
            self.emit("setcc", [d], [a], (cond, b))
        else:
            self.emit("setcc", [d], [a, b], (cond, None))
        self.known[d] = ("z", 1)
        self.define(i, [d])

    def op_select(self, i: Instr) -> None:
        c, a, b = i.ops
        if isinstance(c.ty, VectorT) or isinstance(i.ty, VectorT):
            raise self.error("vector select is not supported", i)
        rc = self.get1(c)
        ra, rb = self.get(a), self.get(b)
        out = []
        for x, y in zip(ra, rb):
            d = self.new()
            self.emit("select", [d], [rc, x, y])
            out.append(d)
        self.define(i, out)

    def op_freeze(self, i: Instr) -> None:
        self.define(i, self.get(i.ops[0]))

    # -- conversions --------------------------------------------------------------------

    def op_trunc(self, i: Instr) -> None:
        src = self.get(i.ops[0])
        bits = int_bits(i.ty)
        if bits <= 32:
            r = src[0]
            if bits == 1:
                k = self.known.get(r)
                if not (k and k[0] == "z" and k[1] == 1):
                    r = self.alui("ANDI", r, 1)
                    self.known[r] = ("z", 1)
            self.define(i, [r])
        else:
            self.define(i, src[:2])

    def op_zext(self, i: Instr) -> None:
        self._extend(i, sign=False)

    def op_sext(self, i: Instr) -> None:
        self._extend(i, sign=True)

    def _extend(self, i: Instr, sign: bool) -> None:
        if isinstance(i.ty, VectorT):
            raise self.error("vector conversions are not supported", i)
        sbits = int_bits(i.ops[0].ty)
        dbits = int_bits(i.ty)
        src = self.get(i.ops[0])
        if sbits > 32:
            self.define(i, self.ext64(src, sbits, sign))
            return
        lo = self.ext(src[0], sbits, sign)
        if dbits <= 32:
            self.define(i, [lo])
        else:
            hi = self.alui("ASRI", lo, 31) if sign else self.li(0)
            self.define(i, [lo, hi])

    def op_ptrtoint(self, i: Instr) -> None:
        src = self.get(i.ops[0])
        bits = int_bits(i.ty)
        self.define(i, src if bits <= 32 else [src[0], self.li(0)])

    def op_inttoptr(self, i: Instr) -> None:
        bits = int_bits(i.ops[0].ty)
        self.define(i, [self.zext(self.get(i.ops[0])[0], bits)])

    def op_bitcast(self, i: Instr) -> None:
        if isinstance(i.ty, VectorT) or isinstance(i.ops[0].ty, VectorT):
            raise self.error("vector bit casts are not supported", i)
        self.define(i, self.get(i.ops[0]))

    op_addrspacecast = op_bitcast

    # -- memory -------------------------------------------------------------------------

    def address(self, ptr: Value) -> tuple:
        """(base register or None, frame slot or None, byte offset) for a pointer."""
        if isinstance(ptr, Instr):
            if ptr.opcode == "alloca" and ptr in self.slots:
                return None, self.slots[ptr], 0
            if ptr in self.folded:
                base, slot, off = self.address(ptr.ops[0])
                return base, slot, off + self._gep_constant_offset(ptr)
        return self.get1(ptr), None, 0

    def _gep_constant_offset(self, gep: Instr) -> int | None:
        words = []
        for idx in gep.ops[1:]:
            w = self.const_of(idx)
            if w is None or w.symbol is not None:
                return None
            words.append(w)
        try:
            return self.ev.gep_offset(gep.src_ty, words, [v.ty for v in gep.ops[1:]])
        except CompileError:
            return None

    def _mem(self, kind: str, mnem: str, value, base, slot, off: int) -> None:
        if kind == "load":
            if slot is not None:
                self.emit("load", [value], [], (mnem, off, slot))
            else:
                self.emit("load", [value], [base], (mnem, off, None))
        elif slot is not None:
            self.emit("store", [], [value], (mnem, off, slot))
        else:
            self.emit("store", [], [value, base], (mnem, off, None))

    def _pieces(self, ty: Type) -> list[tuple[int, Type]]:
        """Scalars of `ty` with their offsets, for loads and stores."""
        if isinstance(ty, (StructT, ArrayT)):
            return self.scalars(ty)
        if isinstance(ty, VectorT):
            raise self.error("vector loads and stores are not supported")
        return [(0, ty)]

    def op_load(self, i: Instr) -> None:
        base, slot, off = self.address(i.ops[0])
        if base is not None and not fits12(off):
            base, off = self._add_imm(base, off), 0
        out = []
        sign_users = self._all_users_sext(i)
        for poff, pty in self._pieces(i.ty):
            out.extend(self._load_scalar(pty, base, slot, off + poff, sign_users))
        self.define(i, out)

    def _all_users_sext(self, i: Instr) -> bool:
        users = self.users.get(i, [])
        return bool(users) and all(u.opcode == "sext" for u in users)

    def _load_scalar(self, ty: Type, base, slot, off: int, sign: bool) -> list:
        size = self.layout.store_size(ty)
        if size == 1:
            d = self.new()
            self._mem("load", "LDBS" if sign else "LDB", d, base, slot, off)
            self.known[d] = ("s" if sign else "z", 8)
            return [d]
        if size == 2:
            d = self.new()
            self._mem("load", "LDHS" if sign else "LDH", d, base, slot, off)
            self.known[d] = ("s" if sign else "z", 16)
            return [d]
        if size == 4:
            d = self.new()
            self._mem("load", "LD", d, base, slot, off)
            return [d]
        if size == 8:
            lo, hi = self.new(), self.new()
            self._mem("load", "LD", lo, base, slot, off)
            self._mem("load", "LD", hi, base, slot, off + 4)
            return [lo, hi]
        if isinstance(ty, IntT) and size < 8:
            return self._load_odd(size, base, slot, off)
        raise self.error(f"loads of {ty} are not supported")

    def _load_odd(self, size: int, base, slot, off: int) -> list:
        """Little-endian load of a 3, 5, 6 or 7 byte integer."""
        words = []
        for start in range(0, size, 4):
            chunk = min(4, size - start)
            acc = None
            pos = 0
            for width, mnem in ((4, "LD"), (2, "LDH"), (1, "LDB")):
                while chunk - pos >= width:
                    d = self.new()
                    self._mem("load", mnem, d, base, slot, off + start + pos)
                    part = d if pos == 0 else self.alui("LSLI", d, 8 * pos)
                    acc = part if acc is None else self.alu("OR", acc, part)
                    pos += width
            words.append(acc)
        return words

    def op_store(self, i: Instr) -> None:
        value, ptr = i.ops
        base, slot, off = self.address(ptr)
        if base is not None and not fits12(off):
            base, off = self._add_imm(base, off), 0
        regs = self.get(value)
        k = 0
        for poff, pty in self._pieces(value.ty):
            n = self.words(pty)
            self._store_scalar(pty, regs[k:k + n], base, slot, off + poff)
            k += n

    def _store_scalar(self, ty: Type, regs: list, base, slot, off: int) -> None:
        size = self.layout.store_size(ty)
        if size in (1, 2, 4):
            self._mem("store", {1: "STB", 2: "STH", 4: "ST"}[size], regs[0], base, slot, off)
            return
        if size == 8:
            self._mem("store", "ST", regs[0], base, slot, off)
            self._mem("store", "ST", regs[1], base, slot, off + 4)
            return
        if isinstance(ty, IntT) and size < 8:
            for start in range(0, size, 4):
                word = regs[start // 4]
                chunk = min(4, size - start)
                pos = 0
                for width, mnem in ((4, "ST"), (2, "STH"), (1, "STB")):
                    while chunk - pos >= width:
                        part = word if pos == 0 else self.alui("LSRI", word, 8 * pos)
                        self._mem("store", mnem, part, base, slot, off + start + pos)
                        pos += width
            return
        raise self.error(f"stores of {ty} are not supported")

    def op_alloca(self, i: Instr) -> None:
        if i in self.slots:
            return                                  # addresses are rematerialised at uses
        count = self.get1(i.ops[0])
        size = self.layout.size(i.src_ty)
        total = count if size == 1 else self.alu("MUL", count, self.li(size))
        total = self.alui("ANDI", self.alui("ADDI", total, 7), -8)
        d = self.new()
        self.emit("dynalloc", [d], [total])
        self.define(i, [d])

    def op_getelementptr(self, i: Instr) -> None:
        if isinstance(i.ty, VectorT):
            raise self.error("vector getelementptr is not supported", i)
        const = self._gep_constant_offset(i)
        if const is not None:
            base, slot, off = self.address(i.ops[0])
            off += const
            if slot is not None:
                d = self.new()
                self.emit("frameaddr", [d], [], (slot, off))
                self.define(i, [d])
                return
            self.define(i, [self._add_imm(base, off) if off else base])
            return
        addr = self.get1(i.ops[0])
        ty = i.src_ty
        const_off = 0
        for n, idx in enumerate(i.ops[1:]):
            bits = int_bits(idx.ty)
            if n == 0:
                elem = ty
            elif isinstance(ty, StructT):
                field_no = self.imm_of(idx, bits, False)
                const_off += self.layout.offsets(ty)[field_no]
                ty = ty.fields[field_no]
                continue
            elif isinstance(ty, (ArrayT, VectorT)):
                ty = elem = ty.elem
            else:
                raise self.error(f"cannot index into {ty}", i)
            size = self.layout.size(elem)
            imm = self.imm_of(idx, bits, True)
            if imm is not None:
                const_off += imm * size
                continue
            r = self.get(idx)[0]
            if bits < 32:
                r = self.sext(r, bits)
            if size == 0:
                continue
            if size != 1:
                if size & (size - 1) == 0:
                    r = self.alui("LSLI", r, size.bit_length() - 1)
                elif fits12(size):
                    r = self.alui("MULI", r, size)
                else:
                    r = self.alu("MUL", r, self.li(size))
            addr = self.alu("ADD", addr, r)
        if const_off:
            addr = self._add_imm(addr, signed(mask(const_off, 32), 32))
        self.define(i, [addr])

    def op_fence(self, i: Instr) -> None:
        pass

    def op_atomicrmw(self, i: Instr) -> None:
        ptr, val = i.ops
        base, slot, off = self.address(ptr)
        ty = i.ty
        bits = int_bits(ty)
        if bits > 32:
            raise self.error("64-bit atomics are not supported", i)
        old = self._load_scalar(ty, base, slot, off, False)[0]
        v = self.get1(val)
        op = i.pred
        if op == "xchg":
            new = v
        elif op in ("add", "sub", "and", "or", "xor"):
            new = self.alu(self._REG_FORMS[op], old, v)
        elif op == "nand":
            new = self.alu("XOR", self.alu("AND", old, v), self.li(-1))
        elif op in ("max", "min", "umax", "umin"):
            sign = op in ("max", "min")
            a, b = self.ext(old, bits, sign), self.ext(v, bits, sign)
            cond = ("sgt" if op == "max" else "slt") if sign else \
                ("ugt" if op == "umax" else "ult")
            c = self.new()
            self.emit("setcc", [c], [a, b], (cond, None))
            new = self.new()
            self.emit("select", [new], [c, old, v])
        else:
            raise self.error(f"atomicrmw {op} is not supported", i)
        self._store_scalar(ty, [new], base, slot, off)
        self.define(i, [old])

    def op_cmpxchg(self, i: Instr) -> None:
        ptr, expected, new = i.ops
        vty = expected.ty
        bits = int_bits(vty)
        if bits > 32:
            raise self.error("64-bit atomics are not supported", i)
        base, slot, off = self.address(ptr)
        old = self._load_scalar(vty, base, slot, off, False)[0]
        a = self.zext(old, bits)
        b = self.zext(self.get1(expected), bits)
        ok = self.new()
        self.emit("setcc", [ok], [a, b], ("eq", None))
        value = self.new()
        self.emit("select", [value], [ok, self.get1(new), old])
        self._store_scalar(vty, [value], base, slot, off)
        self.define(i, [old, ok])

    # -- aggregates ---------------------------------------------------------------------

    def _field_range(self, ty: Type, indices: tuple) -> tuple[int, int, Type]:
        """Word range [start, end) of the field at `indices` inside a value of `ty`."""
        start = 0
        for index in indices:
            if isinstance(ty, StructT):
                start += sum(self.words(f) for f in ty.fields[:index])
                ty = ty.fields[index]
            elif isinstance(ty, ArrayT):
                start += index * self.words(ty.elem)
                ty = ty.elem
            else:
                raise self.error(f"cannot index into {ty}")
        return start, start + self.words(ty), ty

    def op_extractvalue(self, i: Instr) -> None:
        regs = self.get(i.ops[0])
        start, end, _ = self._field_range(i.ops[0].ty, i.indices)
        self.define(i, regs[start:end])

    def op_insertvalue(self, i: Instr) -> None:
        regs = list(self.get(i.ops[0]))
        start, end, _ = self._field_range(i.ops[0].ty, i.indices)
        regs[start:end] = self.get(i.ops[1])
        self.define(i, regs)

    # -- floating point -----------------------------------------------------------------

    def _float_bits(self, ty: Type, i: Instr) -> int:
        if not isinstance(ty, FloatT) or ty.bits not in (16, 32, 64) or ty.name == "bfloat":
            raise self.error(f"floating-point type {ty} is not supported", i)
        return ty.bits

    def _float_binary(self, i: Instr) -> None:
        bits = self._float_bits(i.ty, i)
        a, b = (self.get(v) for v in i.ops)
        if bits == 16:
            if i.opcode == "frem":
                raise self.error("frem on half is not supported", i)
            self.define(i, [self.alu(HALF_BINOPS[i.opcode], a[0], b[0])])
            return
        self.define(i, self.float_op(i.opcode, bits, a, b))

    def float_op(self, opcode: str, bits: int, a: list, b: list) -> list:
        """fadd/fsub/fmul/fdiv/frem of two float (32) or double (64) values."""
        if self.hard_float and (opcode, bits) in fpu.ARITHMETIC:
            return fpu.arithmetic(self, opcode, bits, a, b)
        return self.libcall(FLOAT_BINOPS[(opcode, bits)], a + b, bits // 32)

    op_fadd = op_fsub = op_fmul = op_fdiv = op_frem = _float_binary

    def op_fneg(self, i: Instr) -> None:
        bits = self._float_bits(i.ty, i)
        regs = self.get(i.ops[0])
        sign = self.li(0x8000 if bits == 16 else -0x80000000)
        if bits == 64:
            self.define(i, [regs[0], self.alu("XOR", regs[1], sign)])
        else:
            self.define(i, [self.alu("XOR", regs[0], sign)])

    def op_fcmp(self, i: Instr) -> None:
        bits = self._float_bits(i.ops[0].ty, i)
        pred = i.pred
        if pred in ("true", "false"):
            self.define(i, [self.li(1 if pred == "true" else 0)])
            return
        a, b = (self._to_float(self.get(v), bits) for v in i.ops)
        if self.hard_float and pred in fpu.BRANCHES:
            self.define(i, [fpu.compare(self, pred, 64 if bits == 64 else 32, a, b)])
            return
        wide = bits == 64
        result = self.libcall("__hsx_cmpdf2" if wide else "__hsx_cmpsf2", a + b, 1)[0]
        masked = self.alui("ANDI", result, FCMP_MASKS[pred])
        d = self.new()
        self.emit("setcc", [d], [masked], ("ne", 0))
        self.known[d] = ("z", 1)
        self.define(i, [d])

    def _to_float(self, regs: list, bits: int) -> list:
        """f16 operands are compared as float."""
        if bits == 16:
            return self.libcall("__extendhfsf2", regs, 1)
        return regs

    def op_fpext(self, i: Instr) -> None:
        sbits = self._float_bits(i.ops[0].ty, i)
        dbits = self._float_bits(i.ty, i)
        regs = self.get(i.ops[0])
        if sbits == 16:
            regs = self.libcall("__extendhfsf2", regs, 1)
        if dbits == 64:
            regs = self.widen(regs)
        self.define(i, regs)

    def widen(self, regs: list) -> list:
        """float -> double."""
        if self.hard_float:
            return fpu.convert(self, "S2D", regs, 2)
        return self.libcall("__extendsfdf2", regs, 2)

    def op_fptrunc(self, i: Instr) -> None:
        sbits = self._float_bits(i.ops[0].ty, i)
        dbits = self._float_bits(i.ty, i)
        regs = self.get(i.ops[0])
        if sbits == 64 and dbits == 16:
            regs = self.libcall("__truncdfhf2", regs, 1)
        elif sbits == 64:
            regs = (fpu.convert(self, "D2S", regs, 1) if self.hard_float
                    else self.libcall("__truncdfsf2", regs, 1))
        elif dbits == 16:
            regs = self.libcall("__truncsfhf2", regs, 1)
        self.define(i, regs)

    def _fp_to_int(self, i: Instr, sign: bool) -> None:
        fbits = self._float_bits(i.ops[0].ty, i)
        ibits = int_bits(i.ty)
        regs = self.get(i.ops[0])
        if fbits == 16:
            regs = self.libcall("__extendhfsf2", regs, 1)
            fbits = 32
        if self.hard_float:
            self.define(i, fpu.convert(self, fpu.TO_INT[fbits, ibits > 32, sign], regs,
                                       2 if ibits > 32 else 1))
            return
        f = "sf" if fbits == 32 else "df"
        if ibits > 32:
            name = f"__fix{'' if sign else 'uns'}{f}di"
            self.define(i, self.libcall(name, regs, 2))
        else:
            name = f"__fix{'' if sign else 'uns'}{f}si"
            self.define(i, self.libcall(name, regs, 1))

    def op_fptosi(self, i: Instr) -> None:
        self._fp_to_int(i, True)

    def op_fptoui(self, i: Instr) -> None:
        self._fp_to_int(i, False)

    def _int_to_fp(self, i: Instr, sign: bool) -> None:
        fbits = self._float_bits(i.ty, i)
        ibits = int_bits(i.ops[0].ty)
        regs = self.get(i.ops[0])
        f = "sf" if fbits != 64 else "df"
        if ibits > 32:
            regs = self.ext64(regs, ibits, sign)
        else:
            regs = [self.ext(regs[0], ibits, sign)]
        if self.hard_float:
            out = fpu.convert(self, fpu.FROM_INT[64 if fbits == 64 else 32, ibits > 32, sign],
                              regs, 2 if fbits == 64 else 1)
        elif ibits > 32:
            out = self.libcall(f"__float{'' if sign else 'un'}di{f}", regs, 1 if f == "sf" else 2)
        else:
            out = self.libcall(f"__float{'' if sign else 'un'}si{f}", regs, 1 if f == "sf" else 2)
        if fbits == 16:
            out = self.libcall("__truncsfhf2", out, 1)
        self.define(i, out)

    def op_sitofp(self, i: Instr) -> None:
        self._int_to_fp(i, True)

    def op_uitofp(self, i: Instr) -> None:
        self._int_to_fp(i, False)

    # -- calls --------------------------------------------------------------------------

    def libcall(self, name: str, args: list, ret_words: int) -> list:
        """Call a runtime routine with 32-bit argument words; returns the result words."""
        return self.call_words(("sym", name), [[a] for a in args], [4] * len(args),
                               len(args), ret_words)

    def call_words(self, callee, arg_words: list[list], aligns: list[int], fixed: int,
                   ret_words: int) -> list:
        locations, _, stack = assign_arguments([len(w) for w in arg_words], aligns, fixed)
        self.mf.outgoing = max(self.mf.outgoing, stack)
        for words, loc in zip(arg_words, locations):
            if loc.stack is not None:
                for k, r in enumerate(words):
                    self.emit("store", [], [r, SP], ("ST", loc.stack + 4 * k, None))
        used = []
        for words, loc in zip(arg_words, locations):
            if loc.regs:
                for preg, r in zip(loc.regs, words):
                    self.mov(preg, r)
                    used.append(preg)
        results = list(R[0:ret_words])
        if callee[0] == "sym":
            self.emit("call", results, used, (callee[1],), clobbers=CALLER_SAVED)
        else:
            self.emit("callr", results, [callee[1]] + used, (), clobbers=CALLER_SAVED)
        out = []
        for preg in results:
            d = self.new()
            self.mov(d, preg)
            out.append(d)
        return out

    def op_call(self, i: Instr) -> None:
        callee = i.ops[-1]
        args = i.ops[:-1]
        if i.asm is not None:
            self._inline_asm(i, args)
            return
        name = callee.c.name if isinstance(callee, Const) and isinstance(callee.c, CGlobal) \
            else None
        if name is not None and name.startswith("llvm."):
            self._intrinsic(i, name, args)
            return
        fn_ty: FuncT = i.fn_ty
        if fn_ty.vararg and any(isinstance(a.ty, FloatT) for a in args[len(fn_ty.params):]):
            # like MSVC's _fltused: only programs that can print floating point link
            # printf's %f/%e/%g code (lib/src/printf_float.c) and its soft double
            self.mf.imports.add(PRINTF_FLOAT)
        arg_words = []
        aligns = []
        for k, arg in enumerate(args):
            attrs = i.arg_attrs[k] if k < len(i.arg_attrs) else {}
            byval = attrs.get("byval")
            if byval is not None:
                arg_words.append([self._byval_copy(arg, byval, attrs.get("align", 4))])
                aligns.append(4)
                continue
            arg_words.append(self.get(arg))
            aligns.append(self.arg_align(arg.ty))
        ret_words = 0 if isinstance(i.ty, VoidT) else self.words(i.ty)
        if ret_words > 2:
            raise self.error("calls returning more than 64 bits in registers are not "
                             "supported", i)
        if name is not None:
            target = ("sym", symbol_name(self._resolve_alias(name)))
        else:
            target = ("reg", self.get1(callee))
        out = self.call_words(target, arg_words, aligns, len(fn_ty.params), ret_words)
        if ret_words:
            self.define(i, out)

    def _resolve_alias(self, name: str) -> str:
        seen = 0
        while name in self.module.aliases and seen < 16:
            target = self.module.aliases[name]
            if not isinstance(target, CGlobal):
                break
            name = target.name
            seen += 1
        return name

    def _byval_copy(self, arg: Value, ty: Type, align: int) -> VReg:
        """A by-value aggregate argument: copy it to a fresh frame slot, pass its address."""
        size = self.layout.size(ty)
        slot = self.mf.slot(size, max(4, min(align, 8)), name="byval")
        dst = self.new()
        self.emit("frameaddr", [dst], [], (slot, 0))
        self.copy_memory(dst, self.get1(arg), size)
        d = self.new()
        self.emit("frameaddr", [d], [], (slot, 0))
        return d

    def copy_memory(self, dst, src, size: int) -> None:
        """memcpy with a constant size: inline loads and stores when short (the VM allows
        unaligned accesses), else a call."""
        if size > 32:
            self.libcall("memcpy", [dst, src, self.li(size)], 1)
            return
        off = 0
        for width, load, store in ((4, "LD", "ST"), (2, "LDH", "STH"), (1, "LDB", "STB")):
            while size - off >= width:
                t = self.new()
                self.emit("load", [t], [src], (load, off, None))
                self.emit("store", [], [t, dst], (store, off, None))
                off += width

    # -- intrinsics ---------------------------------------------------------------------

    def _intrinsic(self, i: Instr, name: str, args: list) -> None:
        if name.startswith(IGNORED_INTRINSICS):
            return
        base = name.split(".")[1]
        if ".with.overflow." in name:
            handler = lambda i, args: self._overflow(i, args, base)   # noqa: E731
        elif ".sat." in name:
            handler = lambda i, args: self._saturating(i, args, base)  # noqa: E731
        elif name.startswith("llvm.is.constant."):
            handler = self.intr_is_constant
        else:
            handler = getattr(self, "intr_" + base, None)
        if handler is None:
            raise self.error(f"unsupported intrinsic {name}", i)
        handler(i, args)

    def intr_memcpy(self, i: Instr, args: list) -> None:
        self._mem_intrinsic(i, args, "memcpy")

    def intr_memmove(self, i: Instr, args: list) -> None:
        self._mem_intrinsic(i, args, "memmove")

    def intr_memset(self, i: Instr, args: list) -> None:
        self._mem_intrinsic(i, args, "memset")

    def _mem_intrinsic(self, i: Instr, args: list, func: str) -> None:
        dst, src, length = args[:3]
        size = self.imm_of(length, int_bits(length.ty), False)
        if func == "memcpy" and size is not None and size <= 32:
            self.copy_memory(self.get1(dst), self.get1(src), size)
            return
        byte = self.imm_of(src, 8, False) if func == "memset" else None
        if byte is not None and size is not None and size <= 32:
            d = self.get1(dst)
            fill = self.li(byte * 0x01010101)
            off = 0
            for width, store in ((4, "ST"), (2, "STH"), (1, "STB")):
                while size - off >= width:
                    self.emit("store", [], [fill, d], (store, off, None))
                    off += width
            return
        n = self.get(length)[0]
        value = self.get1(src) if func != "memset" else self.zext(self.get1(src), 8)
        self.libcall(func, [self.get1(dst), value, n], 1)

    def intr_va_start(self, i: Instr, args: list) -> None:
        base, slot, off = self.address(args[0])
        area = self.new()
        self.emit("vastart", [area], [], (8 + self.mf.incoming_stack,))
        self._mem("store", "ST", area, base, slot, off)

    def intr_va_copy(self, i: Instr, args: list) -> None:
        dst, src = args[:2]
        t = self.new()
        sb, ss, so = self.address(src)
        self._mem("load", "LD", t, sb, ss, so)
        db, ds, do = self.address(dst)
        self._mem("store", "ST", t, db, ds, do)

    def intr_ptrmask(self, i: Instr, args: list) -> None:
        p = self.get1(args[0])
        m = self.imm_of(args[1], 32, True)
        if m is not None and fits12(m):
            self.define(i, [self.alui("ANDI", p, m)])
        else:
            self.define(i, [self.alu("AND", p, self.get(args[1])[0])])

    def intr_stacksave(self, i: Instr, args: list) -> None:
        d = self.new()
        self.emit("mov", [d], [SP])
        self.define(i, [d])

    def intr_stackrestore(self, i: Instr, args: list) -> None:
        self.emit("stackrestore", [], [self.get1(args[0])])

    def intr_trap(self, i: Instr, args: list) -> None:
        self.emit("trap", [], [], (1,))

    intr_debugtrap = intr_trap
    intr_ubsantrap = intr_trap

    def intr_expect(self, i: Instr, args: list) -> None:
        self.define(i, self.get(args[0]))

    def intr_is_constant(self, i: Instr, args: list) -> None:
        self.define(i, [self.li(0)])

    def intr_objectsize(self, i: Instr, args: list) -> None:
        minimum = self.imm_of(args[1], 1, False)
        self.define(i, self._int_result(i.ty, 0 if minimum else -1))

    def _int_result(self, ty: Type, value: int) -> list:
        if int_bits(ty) > 32:
            return [self.li(value & 0xFFFFFFFF), self.li((value >> 32) & 0xFFFFFFFF)]
        return [self.li(value)]

    def _minmax(self, i: Instr, args: list, cond: str) -> None:
        bits = int_bits(i.ty)
        if bits > 32:
            raise self.error(f"64-bit {i.opcode} intrinsic is not supported", i)
        sign = cond[0] == "s"
        a = self.ext(self.get1(args[0]), bits, sign)
        b = self.ext(self.get1(args[1]), bits, sign)
        c = self.new()
        self.emit("setcc", [c], [a, b], (cond, None))
        d = self.new()
        self.emit("select", [d], [c, a, b])
        self.define(i, [d])

    def _three_way(self, i: Instr, args: list, sign: bool) -> None:
        """llvm.scmp/ucmp: -1, 0 or 1 as a < b, a == b, a > b."""
        bits = int_bits(args[0].ty)
        if bits > 32:
            raise self.error(f"64-bit {i.opcode} intrinsic is not supported", i)
        a = self.ext(self.get1(args[0]), bits, sign)
        b = self.ext(self.get1(args[1]), bits, sign)
        prefix = "s" if sign else "u"
        gt, lt = self.new(), self.new()
        self.emit("setcc", [gt], [a, b], (prefix + "gt", None))
        self.emit("setcc", [lt], [a, b], (prefix + "lt", None))
        low = self.alu("SUB", gt, lt)
        self.define(i, [low, self.alui("ASRI", low, 31)] if int_bits(i.ty) > 32 else [low])

    def intr_scmp(self, i, args):
        self._three_way(i, args, True)

    def intr_ucmp(self, i, args):
        self._three_way(i, args, False)

    def intr_smax(self, i, args):
        self._minmax(i, args, "sgt")

    def intr_smin(self, i, args):
        self._minmax(i, args, "slt")

    def intr_umax(self, i, args):
        self._minmax(i, args, "ugt")

    def intr_umin(self, i, args):
        self._minmax(i, args, "ult")

    def intr_abs(self, i: Instr, args: list) -> None:
        bits = int_bits(i.ty)
        if bits > 32:
            lo, hi = self.get(args[0])
            sign = self.alui("ASRI", hi, 31)
            x = [self.alu("XOR", lo, sign), self.alu("XOR", hi, sign)]
            d = [self.new(), self.new()]
            self.emit("sub64", d, x + [sign, sign], early=True)
            self.define(i, d)
            return
        a = self.sext(self.get1(args[0]), bits)
        sign = self.alui("ASRI", a, 31)
        self.define(i, [self.alu("SUB", self.alu("XOR", a, sign), sign)])

    def _funnel(self, i: Instr, args: list, left: bool) -> None:
        """llvm.fshl / llvm.fshr (rotates are funnel shifts of a value with itself)."""
        bits = int_bits(i.ty)
        amount = self.imm_of(args[2], bits, False)
        if bits > 32:
            self._funnel64(i, args, left, amount)
            return
        hi = self.get1(args[0])
        lo = self.zext(self.get1(args[1]), bits)
        if amount is not None:
            n = amount % bits
            if n == 0:
                self.define(i, [hi if left else lo])
                return
            if not left:
                n = bits - n
            self.define(i, [self.alu("OR", self.alui("LSLI", hi, n),
                                     self.alui("LSRI", lo, bits - n))])
            return
        n = self.get1(args[2])
        n = self.alui("ANDI", n, bits - 1) if bits & (bits - 1) == 0 else \
            self.alu("REMU", self.zext(n, bits), self.li(bits))
        inv = self.alu("SUB", self.li(bits), n)
        if left:
            shifted = self.alu("OR", self.alu("LSL", hi, n), self.alu("LSR", lo, inv))
            keep = hi
        else:
            shifted = self.alu("OR", self.alu("LSR", lo, n), self.alu("LSL", hi, inv))
            keep = lo
        if bits < 32:                 # a shift by `bits` already gives zero
            self.define(i, [shifted])
            return
        zero = self.new()
        self.emit("setcc", [zero], [n], ("eq", 0))
        d = self.new()
        self.emit("select", [d], [zero, keep, shifted])
        self.define(i, [d])

    def _funnel64(self, i: Instr, args: list, left: bool, amount: int | None) -> None:
        if int_bits(i.ty) != 64 or amount is None:
            raise self.error("funnel shifts of 64-bit values by a variable amount are "
                             "not supported", i)
        n = amount % 64
        hi, lo = self.get(args[0]), self.get(args[1])
        if n == 0:
            self.define(i, hi if left else lo)
            return
        if not left:
            n = 64 - n
        a = self._shift64_const("shl", hi, n)
        b = self._shift64_const("lshr", lo, 64 - n)
        self.define(i, [self.alu("OR", a[0], b[0]), self.alu("OR", a[1], b[1])])

    def intr_fshl(self, i, args):
        self._funnel(i, args, True)

    def intr_fshr(self, i, args):
        self._funnel(i, args, False)

    def _bit_count(self, i: Instr, args: list, routine: str) -> None:
        """ctlz / cttz through runtime routines (lib/src/bits.mvasm)."""
        bits = int_bits(i.ty)
        regs = self.get(args[0])
        if bits <= 32:
            r = self.zext(regs[0], bits)
            out = self.libcall(f"__hsx_{routine}si2", [r], 1)[0]
            if routine == "clz" and bits < 32:
                out = self.alui("ADDI", out, bits - 32)
            elif routine == "ctz" and bits < 32:
                limit = self.new()
                self.emit("setcc", [limit], [out], ("ugt", bits))
                d = self.new()
                self.emit("select", [d], [limit, self.li(bits), out])
                out = d
            self.define(i, [out])
            return
        out = self.libcall(f"__hsx_{routine}di2", list(regs), 1)[0]
        self.define(i, [out, self.li(0)])

    def intr_ctlz(self, i, args):
        self._bit_count(i, args, "clz")

    def intr_cttz(self, i, args):
        self._bit_count(i, args, "ctz")

    def _popcount32(self, x):
        """Population count of a 32-bit register, inline (parallel bit sums)."""
        t = self.alu("AND", self.alui("LSRI", x, 1), self.li(0x55555555))
        x = self.alu("SUB", x, t)
        m = self.li(0x33333333)
        x = self.alu("ADD", self.alu("AND", x, m), self.alu("AND", self.alui("LSRI", x, 2), m))
        x = self.alu("AND", self.alu("ADD", x, self.alui("LSRI", x, 4)), self.li(0x0F0F0F0F))
        return self.alui("LSRI", self.alu("MUL", x, self.li(0x01010101)), 24)

    def intr_ctpop(self, i: Instr, args: list) -> None:
        bits = int_bits(i.ty)
        regs = self.get(args[0])
        if bits <= 32:
            self.define(i, [self._popcount32(self.zext(regs[0], bits))])
        else:
            total = self.alu("ADD", self._popcount32(regs[0]), self._popcount32(regs[1]))
            self.define(i, [total, self.li(0)])

    def _bswap32(self, x):
        """Byte swap of a 32-bit register, inline."""
        high = self.alu("OR", self.alui("LSRI", x, 24), self.alui("LSLI", x, 24))
        mid = self.li(0xFF00)
        low = self.alu("OR", self.alu("AND", self.alui("LSRI", x, 8), mid),
                       self.alui("LSLI", self.alu("AND", x, mid), 8))
        return self.alu("OR", high, low)

    def intr_bswap(self, i: Instr, args: list) -> None:
        bits = int_bits(i.ty)
        regs = self.get(args[0])
        if bits == 16:
            r = regs[0]
            self.define(i, [self.alu("OR", self.alui("ANDI", self.alui("LSRI", r, 8), 255),
                                     self.alui("LSLI", r, 8))])
        elif bits == 32:
            self.define(i, [self._bswap32(regs[0])])
        elif bits == 64:
            self.define(i, [self._bswap32(regs[1]), self._bswap32(regs[0])])
        else:
            raise self.error(f"{bits}-bit bswap is not supported", i)

    def _overflow(self, i: Instr, args: list, op: str) -> None:
        """llvm.{s,u}{add,sub,mul}.with.overflow: {result, overflow bit}."""
        ty = i.ty.fields[0]
        bits = int_bits(ty)
        if bits > 32:
            raise self.error(f"{i.opcode} on {bits}-bit values is not supported", i)
        sign = op[0] == "s"
        a = self.ext(self.get1(args[0]), bits, sign)
        b = self.ext(self.get1(args[1]), bits, sign)
        kind = op[1:]
        result = self.alu({"add": "ADD", "sub": "SUB", "mul": "MUL"}[kind], a, b)
        if bits < 32:
            back = self.ext(result, bits, sign)
            flag = self.new()
            self.emit("setcc", [flag], [back, result], ("ne", None))
        elif kind == "mul":
            high = self.alu("MULHS" if sign else "MULHU", a, b)
            expect = self.alui("ASRI", result, 31) if sign else self.li(0)
            flag = self.new()
            self.emit("setcc", [flag], [high, expect], ("ne", None))
        elif not sign:
            flag = self.new()
            self.emit("setcc", [flag], [result, a], ("ult" if kind == "add" else "ugt", None))
        else:
            # signed overflow: operands' signs agree (add) / differ (sub) and the result's
            # sign differs from a's.
            x = self.alu("XOR", result, a)
            y = self.alu("XOR", result, b) if kind == "add" else self.alu("XOR", a, b)
            z = self.alu("AND", x, y)
            flag = self.new()
            self.emit("setcc", [flag], [z], ("slt", 0))
        self.known[flag] = ("z", 1)
        self.define(i, [result, flag])

    def _saturating(self, i: Instr, args: list, op: str) -> None:
        """llvm.uadd.sat / llvm.usub.sat."""
        bits = int_bits(i.ty)
        if bits > 32 or op not in ("uadd", "usub"):
            raise self.error(f"llvm.{op}.sat is not supported", i)
        a = self.zext(self.get1(args[0]), bits)
        b = self.zext(self.get1(args[1]), bits)
        flag = self.new()
        if op == "usub":
            result, limit = self.alu("SUB", a, b), self.li(0)
            self.emit("setcc", [flag], [a, b], ("ult", None))
        elif bits < 32:
            result, limit = self.alu("ADD", a, b), self.li((1 << bits) - 1)
            self.emit("setcc", [flag], [result, limit], ("ugt", None))
        else:
            result, limit = self.alu("ADD", a, b), self.li(-1)
            self.emit("setcc", [flag], [result, a], ("ult", None))
        d = self.new()
        self.emit("select", [d], [flag, limit, result])
        self.define(i, [d])

    def _float_call(self, i: Instr, args: list, name32: str, name64: str) -> None:
        bits = self._float_bits(i.ty, i)
        if bits == 16:
            raise self.error(f"{name32} on half is not supported", i)
        words = [w for a in args for w in self.get(a)]
        self.define(i, self.libcall(name32 if bits == 32 else name64, words, bits // 32))

    def intr_fabs(self, i: Instr, args: list) -> None:
        bits = self._float_bits(i.ty, i)
        regs = self.get(args[0])
        keep = self.li(0x7FFF if bits == 16 else 0x7FFFFFFF)
        if bits == 64:
            self.define(i, [regs[0], self.alu("AND", regs[1], keep)])
        else:
            self.define(i, [self.alu("AND", regs[0], keep)])

    def intr_copysign(self, i: Instr, args: list) -> None:
        bits = self._float_bits(i.ty, i)
        a, b = self.get(args[0]), self.get(args[1])
        sign = self.li(0x8000 if bits == 16 else -0x80000000)
        keep = self.li(0x7FFF if bits == 16 else 0x7FFFFFFF)
        k = 1 if bits == 64 else 0
        word = self.alu("OR", self.alu("AND", a[k], keep), self.alu("AND", b[k], sign))
        self.define(i, [a[0], word] if bits == 64 else [word])

    def intr_sqrt(self, i, args):
        self._float_call(i, args, "sqrtf", "sqrt")

    def intr_floor(self, i, args):
        self._float_call(i, args, "floorf", "floor")

    def intr_ceil(self, i, args):
        self._float_call(i, args, "ceilf", "ceil")

    def intr_trunc(self, i, args):
        self._float_call(i, args, "truncf", "trunc")

    def intr_fmuladd(self, i: Instr, args: list) -> None:
        bits = self._float_bits(i.ty, i)
        a, b, c = (self.get(x) for x in args)
        if bits == 16:
            self.define(i, [self.alu("FADD", self.alu("FMUL", a[0], b[0]), c[0])])
            return
        self.define(i, self.float_op("fadd", bits, self.float_op("fmul", bits, a, b), c))

    def intr_convert(self, i: Instr, args: list) -> None:
        """llvm.convert.to.fp16 / llvm.convert.from.fp16 (clang's __fp16 on wasm32)."""
        regs = self.get(args[0])
        if isinstance(i.ty, IntT):              # to.fp16: float/double -> i16 bits
            bits = self._float_bits(args[0].ty, i)
            self.define(i, self.libcall("__truncdfhf2" if bits == 64 else "__truncsfhf2",
                                        regs, 1))
        else:
            out = self.libcall("__extendhfsf2", [self.zext(regs[0], 16)], 1)
            if self._float_bits(i.ty, i) == 64:
                out = self.widen(out)
            self.define(i, out)

    # -- inline assembly ----------------------------------------------------------------

    def _inline_asm(self, i: Instr, args: list) -> None:
        """HSX inline-asm convention (docs/c-compiler.md): the k-th output is in R(k)
        from R0 up, register inputs in R1..R5 in order (or tied to an output), `i`
        inputs are substituted as numbers; R0..R5 are clobbered."""
        template, constraints = i.asm
        outputs, inputs = [], []
        for part in constraints.split(","):
            part = part.strip()
            if not part or part.startswith("~"):
                continue
            if part.startswith("="):
                if "m" in part or "*" in part:
                    raise self.error("inline asm memory outputs are not supported", i)
                outputs.append(part)
            else:
                inputs.append(part)
        if len(outputs) > 6:
            raise self.error("inline asm with more than 6 outputs is not supported", i)
        operands: list[str] = [f"R{k}" for k in range(len(outputs))]
        uses: list = []
        next_reg = 1
        for text, arg in zip(inputs, args):
            if text.isdigit():
                preg = R[int(text)]
            elif text in ("i", "n"):
                imm = self.imm_of(arg, int_bits(arg.ty), True)
                if imm is None:
                    word = self.const_of(arg)
                    if word is None or word.symbol is None:
                        raise self.error("inline asm 'i' operand is not a constant", i)
                    operands.append(symbol_name(word.symbol) + (f"+{word.value}" if word.value
                                                                 else ""))
                    continue
                operands.append(str(imm))
                continue
            elif "r" in text:
                if next_reg > 5:
                    raise self.error("inline asm with more than 5 register inputs is not "
                                     "supported", i)
                preg = R[next_reg]
                next_reg += 1
            else:
                raise self.error(f"inline asm constraint '{text}' is not supported", i)
            self.mov(preg, self.get1(arg))
            uses.append(preg)
            operands.append(f"R{preg.n}")
        lines = _substitute_asm(template, operands)
        defs = [R[k] for k in range(len(outputs))]
        self.emit("asm", defs, uses, (lines,), clobbers=CALLER_SAVED)
        if outputs:
            out = []
            for preg in defs:
                d = self.new()
                self.mov(d, preg)
                out.append(d)
            self.define(i, out)


def _substitute_asm(template: str, operands: list[str]) -> tuple[str, ...]:
    """Replace `$N` / `${N}` / `${N:mod}` with operand text; `$$` is a dollar sign."""
    out = []
    k = 0
    while k < len(template):
        ch = template[k]
        if ch == "$" and k + 1 < len(template):
            nxt = template[k + 1]
            if nxt == "$":
                out.append("$")
                k += 2
                continue
            if nxt == "{":
                end = template.index("}", k)
                index = int(template[k + 2:end].split(":")[0])
                out.append(operands[index])
                k = end + 1
                continue
            if nxt.isdigit():
                j = k + 1
                while j < len(template) and template[j].isdigit():
                    j += 1
                out.append(operands[int(template[k + 1:j])])
                k = j
                continue
        out.append(ch)
        k += 1
    text = "".join(out)
    return tuple(line.strip() for line in text.split("\n") if line.strip())


def select_function(module: Module, fn: Function, evaluator: ConstEvaluator,
                    hard_float: bool = True) -> MFunction:
    return Selector(module, fn, evaluator, hard_float).run()
