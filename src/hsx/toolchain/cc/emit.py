"""MVASM for allocated machine functions and a module's data, built as assembler
statements (`hsx.toolchain.parser` nodes) that go to the assembler as they are: nothing
is printed and parsed again.  `Listing.text()` prints them for `hsx cc -S`.

Every instruction remembers the C source location it came from, so the driver can
replace the assembler's line table (statement i is MVASM line i + 1) with C lines.
"""
from __future__ import annotations

from typing import NamedTuple

from hsx.toolchain.diagnostics import SourceLocation
from hsx.toolchain.expressions import Binary, Name, Number
from hsx.toolchain.parser import (Directive, Instruction, Label, Memory, Register,
                                  SourceLine)
from hsx.toolchain.printer import format_statements

from .consts import ConstEvaluator
from .emit64 import Emit64
from .frame import epilogue, prologue
from .ir import CompileError, GlobalVar, Module
from .mir import CONDITIONS, FP, SP, MBlock, MFunction, MInst, PReg, R, fits12, load_constant
from .naming import symbol_name

class Sym(NamedTuple):
    """The operand `name+addend`."""

    name: str
    addend: int = 0


class Mem(NamedTuple):
    """The operand `[base+offset]`."""

    base: PReg
    offset: int = 0


def _operand(x, loc: SourceLocation):
    if isinstance(x, PReg):
        return Register(x.n, loc)
    if isinstance(x, int):
        return Number(x, loc)
    if isinstance(x, str):
        return Name(x, loc)
    if isinstance(x, Sym):
        name = Name(x.name, loc)
        if not x.addend:
            return name
        op = "+" if x.addend > 0 else "-"
        return Binary(op, name, Number(abs(x.addend), loc), loc)
    assert isinstance(x, Mem)
    return Memory(Register(x.base.n, loc), Number(x.offset, loc) if x.offset else None, loc)


class Listing:
    """MVASM statements in order and, per statement, the C location of its code."""

    def __init__(self, filename: str) -> None:
        self.filename = filename
        self.statements: list = []
        self.locs: list = []

    def _here(self, col: int) -> SourceLocation:
        return SourceLocation(self.filename, len(self.statements) + 1, col)

    def _add(self, statement, loc) -> None:
        self.statements.append(statement)
        self.locs.append(loc)

    def source(self, text: str, loc=None) -> None:
        """A line of MVASM text (a comment, a blank, file-scope or inline asm)."""
        self._add(SourceLine(text, self._here(1)), loc)

    def label(self, name: str) -> None:
        self._add(Label(name, self._here(1)), None)

    def directive(self, name: str, *args) -> None:
        here = self._here(1)
        self._add(Directive(name, tuple(_operand(a, here) for a in args), here), None)

    def ins(self, mnemonic: str, *operands, loc=None) -> None:
        here = self._here(5)
        self._add(Instruction(mnemonic, tuple(_operand(o, here) for o in operands), here),
                  loc)

    def text(self) -> str:
        return format_statements(self.statements)


class FunctionEmitter(Emit64):
    def __init__(self, mf: MFunction, out: Listing, far_addresses: bool = False) -> None:
        self.mf = mf
        self.out = out
        self.far_addresses = far_addresses  # addresses in LDI32 (Options.far_addresses)
        self.local = 0
        self.loc = None
        self.framed = True                  # the block being emitted runs with the frame
        self.epilogue_at: str | None = None  # the label of the function's one epilogue

    def label(self) -> str:
        self.local += 1
        return f".L{self.mf.symbol}.x{self.local}"

    def ins(self, mnemonic: str, *operands) -> None:
        self.out.ins(mnemonic, *operands, loc=self.loc)

    def emit(self, aliases: list[str]) -> None:
        """The function's code; `aliases` are exported names for the same address.
        `mf.debug["body"]` (with source lines) is the listing index where its body begins:
        the first code in its entry block that has a C line of its own, past the
        prologue and the arguments' arrival (their copies carry the function's own
        location, `mf.loc`; their spills at -O0 none): DWARF's prologue_end, where
        breakpoints on the function go."""
        mf = self.mf
        self.out.source("")
        for name in sorted(mf.imports):
            self.out.directive(".import", name)
        if mf.exported:
            self.out.directive(".export", mf.symbol)
        for alias in aliases:
            self.out.directive(".export", alias)
            self.out.label(alias)
        self.out.label(mf.symbol)
        self.loc = mf.loc                   # the prologue: the function's line
        if mf.frame_at is None and not mf.frameless:
            self._prologue()
        blocks = mf.blocks
        spans = {} if "values" in mf.debug else None    # -g: the lines of each instruction
        self.position = {id(b): k for k, b in enumerate(blocks)}
        skipped = self._skipped()
        emitted = [b for b in blocks if id(b) not in skipped]
        following = {id(b): n for b, n in zip(emitted, emitted[1:] + [None])}
        for k, block in enumerate(blocks):
            self.index = k
            if id(block) in skipped:        # every branch to it goes past it (thread)
                if spans is not None:
                    here = len(self.out.statements)
                    spans.update((inst, (here, here)) for inst in block.insts)
                continue
            nxt = following[id(block)]
            self.out.label(block.label)
            self.framed = block not in mf.unframed
            if block is mf.frame_at:        # the prologue: the line that needs the frame
                self.loc = next((i.loc for i in block.insts if i.loc is not None
                                 and i.loc.line), self.loc)
                self._prologue()
            for inst in block.insts:
                located = inst.loc is not None and inst.loc.line
                if located:
                    self.loc = inst.loc     # else: the line of the code before it
                start = len(self.out.statements)
                self.instruction(inst, nxt)
                if spans is not None:
                    spans[inst] = (start, len(self.out.statements))
                if located and k == 0 and inst.loc is not mf.loc and \
                        "body" not in mf.debug and len(self.out.statements) > start:
                    mf.debug["body"] = start
        if spans is not None:
            mf.debug["spans"] = spans

    def _prologue(self) -> None:
        for mnemonic, *operands in prologue(self.mf):
            self.ins(mnemonic, *operands)

    # -- instructions -------------------------------------------------------------------

    def instruction(self, inst: MInst, nxt: MBlock | None) -> None:
        getattr(self, "i_" + inst.op)(inst, nxt)

    def i_entry(self, inst, nxt):
        pass

    def i_dbg(self, inst, nxt):         # where debug records take effect (-g): no code
        pass

    def i_mov(self, inst, nxt):
        d, s = inst.defs[0], inst.uses[0]
        if d is not s:
            self.ins("MOV", d, s)

    def i_li(self, inst, nxt):
        value = inst.args[0]
        self.ins(load_constant(value), inst.defs[0], value)

    def i_la(self, inst, nxt):
        sym, addend = inst.args
        self.ins("LDI32" if self.far_addresses else "LDI20", inst.defs[0], Sym(sym, addend))

    def i_alu(self, inst, nxt):
        self.ins(inst.args[0], inst.defs[0], *inst.uses)

    def i_alui(self, inst, nxt):
        mnem, imm = inst.args
        if not fits12(imm):
            raise CompileError(f"internal: immediate {imm} out of range for {mnem}",
                               self.mf.name)
        self.ins(mnem, inst.defs[0], inst.uses[0], imm)

    def _base(self, inst: MInst, slot, off: int, base_index: int) -> tuple[PReg, int]:
        if slot is not None:
            return FP, off - slot.offset
        return inst.uses[base_index], off

    def i_load(self, inst, nxt):
        mnem, off, slot = inst.args
        base, off = self._base(inst, slot, off, 0)
        d = inst.defs[0]
        if fits12(off):
            self.ins(mnem, d, Mem(base, off))
        elif d is not base:
            self.ins(load_constant(off), d, off)
            self.ins("ADD", d, d, base)
            self.ins(mnem, d, Mem(d))
        else:
            t = self._temp({d, base})
            self._far(t, base, off, (mnem, d, Mem(t)))

    def i_store(self, inst, nxt):
        mnem, off, slot = inst.args
        value = inst.uses[0]
        base, off = self._base(inst, slot, off, 1)
        if fits12(off):
            self.ins(mnem, Mem(base, off), value)
        else:
            t = self._temp({value, base})
            self._far(t, base, off, (mnem, Mem(t), value))

    @staticmethod
    def _temp(avoid: set[PReg]) -> PReg:
        return next(r for r in R[:14] if r not in avoid)

    def _far(self, t: PReg, base: PReg, off: int, access: tuple) -> None:
        """A memory access whose offset does not fit 12 bits, through a saved temporary."""
        self.ins("PUSH", t)
        self.ins(load_constant(off), t, off)
        self.ins("ADD", t, t, base)
        self.ins(*access)
        self.ins("POP", t)

    def i_frameaddr(self, inst, nxt):
        slot, off = inst.args
        d = inst.defs[0]
        value = off - slot.offset
        if fits12(value):
            self.ins("ADDI", d, FP, value)
        else:
            self.ins(load_constant(value), d, value)
            self.ins("ADD", d, d, FP)

    def i_vastart(self, inst, nxt):
        self.ins("ADDI", inst.defs[0], FP, inst.args[0])

    def _compare(self, inst: MInst, imm) -> None:
        if imm is not None:
            self.ins("CMPI", inst.uses[0], imm)
        else:
            self.ins("CMP", inst.uses[0], inst.uses[1])

    def i_setcc(self, inst, nxt):
        cond, imm = inst.args
        d = inst.defs[0]
        skip = self.label()
        self._compare(inst, imm)
        self.ins("LDI", d, 1)
        self.ins(CONDITIONS[cond][0], skip)
        self.ins("LDI", d, 0)
        self.out.label(skip)

    def _pair_checked(self, inst: MInst) -> None:
        for where, k in inst.pairs:
            regs = inst.uses if where == "u" else inst.defs
            if regs[k + 1].n != regs[k].n + 1:
                raise CompileError(f"internal: {regs[k]}, {regs[k + 1]} are not a pair",
                                   self.mf.name)

    def i_pairop(self, inst, nxt):
        """A float or 64-bit instruction: its operands' first registers (pairs.py)."""
        mnemonic, firsts = inst.args
        self._pair_checked(inst)
        self.ins(mnemonic, inst.defs[0], *(inst.uses[k] for k in firsts))

    def i_fcmp(self, inst, nxt):
        """0 or 1 from FCMPS/DCMP and the branch taken when the predicate holds."""
        mnemonic, second, branch = inst.args
        self._pair_checked(inst)
        d = inst.defs[0]
        skip = self.label()
        self.ins(mnemonic, inst.uses[0], inst.uses[second])
        self.ins("LDI", d, 1)
        self.ins(branch, skip)
        self.ins("LDI", d, 0)
        self.out.label(skip)

    def i_select(self, inst, nxt):
        d = inst.defs[0]
        c, a, b = inst.uses
        if d is a and d is b:
            return
        skip = self.label()
        self.ins("CMPI", c, 0)
        if d is a:
            self.ins("BNE", skip)
            self.ins("MOV", d, b)
        elif d is b:
            self.ins("BEQ", skip)
            self.ins("MOV", d, a)
        else:
            self.ins("MOV", d, a)
            self.ins("BNE", skip)
            self.ins("MOV", d, b)
        self.out.label(skip)

    def _skipped(self) -> set[int]:
        """Blocks that only branch on (`thread` takes every branch past them) and that
        nothing else names: a jump table, an indirect jump, the function's start."""
        mf = self.mf
        named = {id(b) for _, table in mf.jump_tables for b in table}
        for block in mf.blocks:
            for inst in block.insts:
                if inst.op == "jmpr":
                    named.update(id(b) for b in inst.args[0])
        return {id(b) for b in mf.blocks[1:]
                if len(b.insts) == 1 and b.insts[0].op == "br" and b is not mf.frame_at
                and id(b) not in named and self.thread(b) is not b}

    def thread(self, block: MBlock) -> MBlock:
        """Where a branch to `block` ends up: past blocks that only branch on (an edge
        block whose copies all went away)."""
        seen = set()
        while id(block) not in seen and block is not self.mf.frame_at:
            seen.add(id(block))
            code = [i for i in block.insts if not (i.op == "mov" and i.defs[0] is i.uses[0])]
            if len(code) != 1 or code[0].op != "br":
                break
            block = code[0].args[0]
        return block

    def prefer_false(self, t: MBlock, f: MBlock) -> bool:
        """Neither target comes next: branch conditionally to `f` (then BR to `t`) when
        `f` is the nearer backward target, a loop's head (taken all but once)."""
        here, tk, fk = self.index, self.position[id(t)], self.position[id(f)]
        return fk <= here and (tk > here or fk > tk)

    def i_fcbr(self, inst, nxt):
        """FCMPS/DCMP and the branch of the predicate (or of its negation)."""
        mnemonic, second, holds, fails, t, f = inst.args
        self._pair_checked(inst)
        t, f = self.thread(t), self.thread(f)
        self.ins(mnemonic, inst.uses[0], inst.uses[second])
        if t is nxt or (f is not nxt and self.prefer_false(t, f)):
            self.ins(fails, f.label)
            if t is not nxt:
                self.ins("BR", t.label)
            return
        self.ins(holds, t.label)
        if f is not nxt:
            self.ins("BR", f.label)

    def i_selcc(self, inst, nxt):
        """`d = x cond y ? a : b` (MOV does not change the flags the compare set)."""
        cond, imm = inst.args
        d = inst.defs[0]
        a, b = inst.uses[-2:]
        skip = self.label()
        self._compare(inst, imm)
        if d is a and d is b:
            return
        if d is b:
            self.ins(CONDITIONS[CONDITIONS[cond][1]][0], skip)
            self.ins("MOV", d, a)
        else:
            if d is not a:
                self.ins("MOV", d, a)
            self.ins(CONDITIONS[cond][0], skip)
            self.ins("MOV", d, b)
        self.out.label(skip)

    def i_cbr(self, inst, nxt):
        cond, imm, t, f = inst.args
        t = self.thread(t)
        f = self.thread(f) if f is not None else None
        self._compare(inst, imm)
        if f is not None and (t is nxt or (f is not nxt and self.prefer_false(t, f))):
            self.ins(CONDITIONS[CONDITIONS[cond][1]][0], f.label)
            if t is not nxt:
                self.ins("BR", t.label)
            return
        self.ins(CONDITIONS[cond][0], t.label)
        if f is not None and f is not nxt:
            self.ins("BR", f.label)

    def i_br(self, inst, nxt):
        target = self.thread(inst.args[0])
        if target is not nxt:
            self.ins("BR", target.label)

    def i_jmpr(self, inst, nxt):
        self.ins("JMPR", inst.uses[0])

    def i_call(self, inst, nxt):
        self.ins("LCALL", inst.args[0])

    def i_callr(self, inst, nxt):
        self.ins("CALLR", inst.uses[0])

    def i_ret(self, inst, nxt):
        """A return: RET without the frame; with it, the epilogue where the first
        return is and a BR to it from the others (one word, the epilogue is 3 and up)."""
        if not self.framed:
            self.ins("RET")
        elif self.epilogue_at is not None:
            self.ins("BR", self.epilogue_at)
        else:
            self.epilogue_at = f".L{self.mf.symbol}.ret"
            self.out.label(self.epilogue_at)
            for mnemonic, *operands in epilogue(self.mf):
                self.ins(mnemonic, *operands)

    def i_trap(self, inst, nxt):
        self.ins("BRK", inst.args[0])

    def i_asm(self, inst, nxt):
        for line in inst.args[0]:
            self.out.source("    " + line, self.loc)

    def i_dynalloc(self, inst, nxt):
        self.ins("SUB", SP, SP, inst.uses[0])
        self.ins("ADDI", inst.defs[0], SP, self.mf.outgoing)

    def i_stackrestore(self, inst, nxt):
        self.ins("MOV", SP, inst.uses[0])


# ---------------------------------------------------------------------------------------
# module

def _chunks(data: bytes, size: int = 16):
    for k in range(0, len(data), size):
        yield data[k:k + size]


class ModuleEmitter:
    def __init__(self, module: Module, evaluator: ConstEvaluator, filename: str,
                 far_addresses: bool = False) -> None:
        self.module = module
        self.far_addresses = far_addresses
        self.ev = evaluator
        self.out = Listing(filename)
        # (section, first statement, end, symbol): each function (with its jump tables)
        # and each global, so a library unit can be split into one object per symbol
        self.pieces: list[tuple[str, int, int, str]] = []

    def piece_statements(self) -> list[tuple[str, list]]:
        """(symbol, statements) of every piece, each assembling on its own."""
        out = []
        for section, a, b, name in self.pieces:
            start = self.out.statements[a].loc
            out.append((name, [Directive(f".{section}", (), start)] + self.out.statements[a:b]))
        return out

    def header(self, source: str) -> None:
        self.out.source(f"; {source}: generated by hsx cc")
        for line in self.module.asm:
            self.out.source(line)
        self.out.directive(".text")

    def function(self, mf: MFunction) -> None:
        aliases = [symbol_name(name) for name, target in sorted(self.module.aliases.items())
                   if getattr(target, "name", None) == mf.name]
        start = len(self.out.statements)
        FunctionEmitter(mf, self.out, self.far_addresses).emit(aliases)
        for label, table in mf.jump_tables:
            self.out.directive(".data")
            self.out.directive(".align", 4)
            self.out.label(label)
            for block in table:
                self.out.directive(".word", block.label)
            self.out.directive(".text")
        self.pieces.append(("text", start, len(self.out.statements), mf.symbol))

    def globals(self) -> None:
        data, bss = [], []
        for g in self.module.globals:
            if g.init is None:
                continue
            raw, relocs = self._initializer(g)
            if not relocs and not any(raw) and not g.constant:
                bss.append((g, len(raw)))
            else:
                data.append((g, raw, relocs))
        if data:
            self.out.source("")
            self.out.directive(".data")
            for g, raw, relocs in data:
                start = len(self.out.statements)
                self._data(g, raw, relocs)
                self.pieces.append(("data", start, len(self.out.statements),
                                    symbol_name(g.name)))
        if bss:
            self.out.source("")
            self.out.directive(".bss")
            for g, size in bss:
                start = len(self.out.statements)
                self._label(g)
                self.out.directive(".zero", max(size, 1))
                self.pieces.append(("bss", start, len(self.out.statements),
                                    symbol_name(g.name)))

    def _initializer(self, g: GlobalVar):
        try:
            return self.ev.initializer(g.init, g.ty)
        except CompileError as exc:
            where = _global_where(g)
            raise CompileError(f"initialiser of '{g.name}': {exc.message}", where) from None

    def _label(self, g: GlobalVar) -> None:
        name = symbol_name(g.name)
        if g.align > 1:
            self.out.directive(".align", g.align)
        if not g.local:
            self.out.directive(".export", name)
        for alias, target in sorted(self.module.aliases.items()):
            if getattr(target, "name", None) == g.name:
                self.out.directive(".export", symbol_name(alias))
                self.out.label(symbol_name(alias))
        self.out.label(name)

    def _data(self, g: GlobalVar, raw: bytes, relocs: list) -> None:
        self._label(g)
        at = 0
        for offset, word in sorted(relocs, key=lambda r: r[0]):
            self._bytes(raw[at:offset])
            self.out.directive(".word", Sym(symbol_name(word.symbol), _signed32(word.value)))
            at = offset + 4
        self._bytes(raw[at:])
        if not raw:
            self.out.directive(".zero", 1)

    def _bytes(self, data: bytes) -> None:
        if not data:
            return
        if len(data) >= 8 and not any(data):
            self.out.directive(".zero", len(data))
            return
        for chunk in _chunks(data):
            self.out.directive(".byte", *chunk)


def _signed32(value: int) -> int:
    value &= 0xFFFFFFFF
    return value - (1 << 32) if value >> 31 else value


def _global_where(g: GlobalVar) -> str | None:
    for node in g.debug:
        line = node.fields.get("line") if hasattr(node, "fields") else None
        if line:
            return f"global '{g.name}' (line {line})"
    return f"global '{g.name}'"
