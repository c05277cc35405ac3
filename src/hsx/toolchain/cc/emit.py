"""MVASM text for allocated machine functions and for a module's data.

Every instruction line remembers the C source location it came from, so the driver can
replace the assembler's MVASM line table with C lines (`Listing.locs`).
"""
from __future__ import annotations

from .consts import ConstEvaluator
from .frame import epilogue, prologue
from .mir import CONDITIONS, MBlock, MFunction, MInst, PReg, fits12
from .naming import symbol_name
from .ir import CompileError, GlobalVar, Module

# setcc64 on a signed/unsigned order: branch for the high words ("strictly"), branch
# for the low words (always unsigned).
_HIGH_STRICT = {"slt": "BLT", "sle": "BLT", "sgt": "BGT", "sge": "BGT",
                "ult": "BLTU", "ule": "BLTU", "ugt": "BGTU", "uge": "BGTU"}
_LOW = {"slt": "BLTU", "ult": "BLTU", "sle": "BLEU", "ule": "BLEU",
        "sgt": "BGTU", "ugt": "BGTU", "sge": "BGEU", "uge": "BGEU"}


class Listing:
    """MVASM lines and, per line, the source location of the code it holds."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.locs: list = []

    def add(self, text: str, loc=None) -> None:
        self.lines.append(text)
        self.locs.append(loc)

    def ins(self, text: str, loc=None) -> None:
        self.add("    " + text, loc)

    def text(self) -> str:
        return "\n".join(self.lines) + "\n"


def _mem(base: str, off: int) -> str:
    return f"[{base}]" if off == 0 else f"[{base}{off:+d}]"


class FunctionEmitter:
    def __init__(self, mf: MFunction, out: Listing) -> None:
        self.mf = mf
        self.out = out
        self.local = 0
        self.loc = None

    def label(self) -> str:
        self.local += 1
        return f".L{self.mf.symbol}.x{self.local}"

    def ins(self, text: str) -> None:
        self.out.ins(text, self.loc)

    def emit(self, aliases: list[str]) -> None:
        """The function's code; `aliases` are exported names for the same address."""
        mf = self.mf
        self.out.add("")
        for name in sorted(mf.imports):
            self.out.add(f".import {name}")
        if mf.exported:
            self.out.add(f".export {mf.symbol}")
        for alias in aliases:
            self.out.add(f".export {alias}")
            self.out.add(f"{alias}:")
        self.out.add(f"{mf.symbol}:")
        self.loc = mf.blocks[0].insts[0].loc if mf.blocks and mf.blocks[0].insts else None
        if mf.debug.get("decl_loc") is not None:
            self.loc = mf.debug["decl_loc"]
        for line in prologue(mf):
            self.ins(line)
        blocks = mf.blocks
        spans = {} if "values" in mf.debug else None    # -g: the lines of each instruction
        for k, block in enumerate(blocks):
            nxt = blocks[k + 1] if k + 1 < len(blocks) else None
            self.out.add(f"{block.label}:")
            for inst in block.insts:
                self.loc = inst.loc
                start = len(self.out.lines)
                self.instruction(inst, nxt)
                if spans is not None:
                    spans[inst] = (start, len(self.out.lines))
        if spans is not None:
            mf.debug["spans"] = spans

    def reg(self, r: PReg) -> str:
        return f"R{r.n}"

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
            self.ins(f"MOV {self.reg(d)}, {self.reg(s)}")

    def i_li(self, inst, nxt):
        value = inst.args[0]
        d = self.reg(inst.defs[0])
        self.ins(f"LDI {d}, {value}" if fits12(value) else f"LDI32 {d}, {value}")

    def i_la(self, inst, nxt):
        sym, addend = inst.args
        expr = sym if addend == 0 else f"{sym}{addend:+d}"
        self.ins(f"LDI32 {self.reg(inst.defs[0])}, {expr}")

    def i_alu(self, inst, nxt):
        d, (a, b) = inst.defs[0], inst.uses
        self.ins(f"{inst.args[0]} {self.reg(d)}, {self.reg(a)}, {self.reg(b)}")

    def i_alui(self, inst, nxt):
        mnem, imm = inst.args
        if not fits12(imm):
            raise CompileError(f"internal: immediate {imm} out of range for {mnem}",
                               self.mf.name)
        self.ins(f"{mnem} {self.reg(inst.defs[0])}, {self.reg(inst.uses[0])}, {imm}")

    def _base(self, inst: MInst, slot, off: int, base_index: int) -> tuple[str, int]:
        if slot is not None:
            return "R14", off - slot.offset
        return self.reg(inst.uses[base_index]), off

    def i_load(self, inst, nxt):
        mnem, off, slot = inst.args
        base, off = self._base(inst, slot, off, 0)
        d = self.reg(inst.defs[0])
        if fits12(off):
            self.ins(f"{mnem} {d}, {_mem(base, off)}")
        elif d != base:
            self.ins(f"LDI32 {d}, {off}")
            self.ins(f"ADD {d}, {d}, {base}")
            self.ins(f"{mnem} {d}, [{d}]")
        else:
            t = self._temp({d, base})
            self._far(t, base, off, f"{mnem} {d}, [{t}]")

    def i_store(self, inst, nxt):
        mnem, off, slot = inst.args
        value = self.reg(inst.uses[0])
        base, off = self._base(inst, slot, off, 1)
        if fits12(off):
            self.ins(f"{mnem} {_mem(base, off)}, {value}")
        else:
            t = self._temp({value, base})
            self._far(t, base, off, f"{mnem} [{t}], {value}")

    @staticmethod
    def _temp(avoid: set[str]) -> str:
        return next(f"R{n}" for n in range(14) if f"R{n}" not in avoid)

    def _far(self, t: str, base: str, off: int, access: str) -> None:
        """A memory access whose offset does not fit 12 bits, through a saved temporary."""
        self.ins(f"PUSH {t}")
        self.ins(f"LDI32 {t}, {off}")
        self.ins(f"ADD {t}, {t}, {base}")
        self.ins(access)
        self.ins(f"POP {t}")

    def i_frameaddr(self, inst, nxt):
        slot, off = inst.args
        d = self.reg(inst.defs[0])
        value = off - slot.offset
        if fits12(value):
            self.ins(f"ADDI {d}, R14, {value}")
        else:
            self.ins(f"LDI32 {d}, {value}")
            self.ins(f"ADD {d}, {d}, R14")

    def i_vastart(self, inst, nxt):
        self.ins(f"ADDI {self.reg(inst.defs[0])}, R14, {inst.args[0]}")

    def i_add64(self, inst, nxt):
        self._pair(inst, "ADD", "ADC")

    def i_sub64(self, inst, nxt):
        self._pair(inst, "SUB", "SBC")

    def _pair(self, inst, low: str, high: str) -> None:
        dlo, dhi = (self.reg(r) for r in inst.defs)
        alo, ahi, blo, bhi = (self.reg(r) for r in inst.uses)
        self.ins(f"{low} {dlo}, {alo}, {blo}")
        self.ins(f"{high} {dhi}, {ahi}, {bhi}")

    def _compare(self, inst: MInst, imm) -> None:
        a = self.reg(inst.uses[0])
        if imm is not None:
            self.ins(f"CMPI {a}, {imm}")
        else:
            self.ins(f"CMP {a}, {self.reg(inst.uses[1])}")

    def i_setcc(self, inst, nxt):
        cond, imm = inst.args
        d = self.reg(inst.defs[0])
        skip = self.label()
        self._compare(inst, imm)
        self.ins(f"LDI {d}, 1")
        self.ins(f"{CONDITIONS[cond][0]} {skip}")
        self.ins(f"LDI {d}, 0")
        self.out.add(f"{skip}:")

    def i_setcc64(self, inst, nxt):
        cond = inst.args[0]
        d = self.reg(inst.defs[0])
        alo, ahi, blo, bhi = (self.reg(r) for r in inst.uses)
        true, false, end = self.label(), self.label(), self.label()
        if cond in ("eq", "ne"):
            self.ins(f"CMP {ahi}, {bhi}")
            self.ins(f"BNE {false}")
            self.ins(f"CMP {alo}, {blo}")
            self.ins(f"BNE {false}")
            self.ins(f"LDI {d}, {1 if cond == 'eq' else 0}")
            self.ins(f"BR {end}")
            self.out.add(f"{false}:")
            self.ins(f"LDI {d}, {0 if cond == 'eq' else 1}")
            self.out.add(f"{end}:")
            return
        self.ins(f"CMP {ahi}, {bhi}")
        self.ins(f"{_HIGH_STRICT[cond]} {true}")
        self.ins(f"BNE {false}")
        self.ins(f"CMP {alo}, {blo}")
        self.ins(f"{_LOW[cond]} {true}")
        self.out.add(f"{false}:")
        self.ins(f"LDI {d}, 0")
        self.ins(f"BR {end}")
        self.out.add(f"{true}:")
        self.ins(f"LDI {d}, 1")
        self.out.add(f"{end}:")

    def i_select(self, inst, nxt):
        d = inst.defs[0]
        c, a, b = inst.uses
        if d is a and d is b:
            return
        skip = self.label()
        rd, rc, ra, rb = (self.reg(r) for r in (d, c, a, b))
        self.ins(f"CMPI {rc}, 0")
        if d is a:
            self.ins(f"BNE {skip}")
            self.ins(f"MOV {rd}, {rb}")
        elif d is b:
            self.ins(f"BEQ {skip}")
            self.ins(f"MOV {rd}, {ra}")
        else:
            self.ins(f"MOV {rd}, {ra}")
            self.ins(f"BNE {skip}")
            self.ins(f"MOV {rd}, {rb}")
        self.out.add(f"{skip}:")

    def i_cbr(self, inst, nxt):
        cond, imm, t, f = inst.args
        self._compare(inst, imm)
        if t is nxt and f is not None:
            self.ins(f"{CONDITIONS[CONDITIONS[cond][1]][0]} {f.label}")
            return
        self.ins(f"{CONDITIONS[cond][0]} {t.label}")
        if f is not None and f is not nxt:
            self.ins(f"BR {f.label}")

    def i_br(self, inst, nxt):
        target = inst.args[0]
        if target is not nxt:
            self.ins(f"BR {target.label}")

    def i_jmpr(self, inst, nxt):
        self.ins(f"JMPR {self.reg(inst.uses[0])}")

    def i_call(self, inst, nxt):
        self.ins(f"LCALL {inst.args[0]}")

    def i_callr(self, inst, nxt):
        self.ins(f"CALLR {self.reg(inst.uses[0])}")

    def i_ret(self, inst, nxt):
        for line in epilogue(self.mf):
            self.ins(line)

    def i_trap(self, inst, nxt):
        self.ins(f"BRK {inst.args[0]}")

    def i_asm(self, inst, nxt):
        for line in inst.args[0]:
            self.ins(line)

    def i_dynalloc(self, inst, nxt):
        self.ins(f"SUB R15, R15, {self.reg(inst.uses[0])}")
        self.ins(f"ADDI {self.reg(inst.defs[0])}, R15, {self.mf.outgoing}")

    def i_stackrestore(self, inst, nxt):
        self.ins(f"MOV R15, {self.reg(inst.uses[0])}")


# ---------------------------------------------------------------------------------------
# module

def _chunks(data: bytes, size: int = 16):
    for k in range(0, len(data), size):
        yield data[k:k + size]


class ModuleEmitter:
    def __init__(self, module: Module, evaluator: ConstEvaluator) -> None:
        self.module = module
        self.ev = evaluator
        self.out = Listing()
        # (section, first line, end line, symbol): each function (with its jump tables)
        # and each global, so a library unit can be split into one object per symbol
        self.pieces: list[tuple[str, int, int, str]] = []

    def piece_texts(self) -> list[tuple[str, str]]:
        """(symbol, MVASM) of every piece, each assembling on its own."""
        return [(name, f".{section}\n" + "\n".join(self.out.lines[a:b]) + "\n")
                for section, a, b, name in self.pieces]

    def header(self, source: str) -> None:
        self.out.add(f"; {source}: generated by hsx cc")
        for line in self.module.asm:
            self.out.add(line)
        self.out.add(".text")

    def function(self, mf: MFunction) -> None:
        aliases = [symbol_name(name) for name, target in sorted(self.module.aliases.items())
                   if getattr(target, "name", None) == mf.name]
        start = len(self.out.lines)
        FunctionEmitter(mf, self.out).emit(aliases)
        for label, table in mf.jump_tables:
            self.out.add(".data")
            self.out.add(".align 4")
            self.out.add(f"{label}:")
            for block in table:
                self.out.add(f"    .word {block.label}")
            self.out.add(".text")
        self.pieces.append(("text", start, len(self.out.lines), mf.symbol))

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
            self.out.add("")
            self.out.add(".data")
            for g, raw, relocs in data:
                start = len(self.out.lines)
                self._data(g, raw, relocs)
                self.pieces.append(("data", start, len(self.out.lines), symbol_name(g.name)))
        if bss:
            self.out.add("")
            self.out.add(".bss")
            for g, size in bss:
                start = len(self.out.lines)
                self._label(g)
                self.out.add(f"    .zero {max(size, 1)}")
                self.pieces.append(("bss", start, len(self.out.lines), symbol_name(g.name)))

    def _initializer(self, g: GlobalVar):
        try:
            return self.ev.initializer(g.init, g.ty)
        except CompileError as exc:
            where = _global_where(g)
            raise CompileError(f"initialiser of '{g.name}': {exc.message}", where) from None

    def _label(self, g: GlobalVar) -> None:
        name = symbol_name(g.name)
        if g.align > 1:
            self.out.add(f".align {min(g.align, 8)}")
        if not g.local:
            self.out.add(f".export {name}")
        for alias, target in sorted(self.module.aliases.items()):
            if getattr(target, "name", None) == g.name:
                self.out.add(f".export {symbol_name(alias)}")
                self.out.add(f"{symbol_name(alias)}:")
        self.out.add(f"{name}:")

    def _data(self, g: GlobalVar, raw: bytes, relocs: list) -> None:
        self._label(g)
        at = 0
        for offset, word in sorted(relocs, key=lambda r: r[0]):
            self._bytes(raw[at:offset])
            sym = symbol_name(word.symbol)
            self.out.add(f"    .word {sym}" + (f"{_signed32(word.value):+d}" if word.value else ""))
            at = offset + 4
        self._bytes(raw[at:])
        if not raw:
            self.out.add("    .zero 1")

    def _bytes(self, data: bytes) -> None:
        if not data:
            return
        if len(data) >= 8 and not any(data):
            self.out.add(f"    .zero {len(data)}")
            return
        for chunk in _chunks(data):
            self.out.add("    .byte " + ", ".join(str(b) for b in chunk))


def _signed32(value: int) -> int:
    value &= 0xFFFFFFFF
    return value - (1 << 32) if value >> 31 else value


def _global_where(g: GlobalVar) -> str | None:
    for node in g.debug:
        line = node.fields.get("line") if hasattr(node, "fields") else None
        if line:
            return f"global '{g.name}' (line {line})"
    return f"global '{g.name}'"

