"""Assemble parsed MVASM statements into an `ObjectModule`.

One walk over the statements lays out the three sections (`.text` words, `.data`
bytes, `.bss` size), defines labels and encodes instructions with their immediate
fields left empty; each symbolic or constant operand becomes a fixup.  Once every
label is known the fixups are resolved: constants and same-module PC-relative
targets are patched here, everything else becomes a relocation for the linker
(a module's absolute addresses are only known once it is placed).
Instruction shapes come from the opcode table's forms, never from mnemonic lists.
"""
from __future__ import annotations

import bisect
import math
import os
from dataclasses import dataclass
from typing import Callable, NoReturn

from hsx.image.hxo import LineEntry, ObjectModule, Relocation, SymbolDef
from hsx.image.model import MAX_BSS_SIZE, MAX_CODE_LEN
from hsx.isa.encoding import IMM_RANGE, Instruction as Encoded, encode
from hsx.isa.opcodes import BY_MNEMONIC, Form, Opcode

from . import fixups, metadata
from .gc import starts_atom
from .diagnostics import DiagnosticSink, SourceLocation, TooManyErrors
from .expressions import Expr, ExpressionError, Name, Value, evaluate
from .parser import (Directive, Instruction, KeyValue, Label, Memory, Operand, Register,
                     Statement, String, register_number)

# Operand slots of each form, in MVASM order: (field, kind).  Kinds: 'reg' a register,
# 'mem' a [Rn+off] operand, or the relocation type of an expression operand.
_SLOTS: dict[Form, tuple[tuple[str, str], ...]] = {
    Form.NONE: (),
    Form.RD_IMM: (("rd", "reg"), ("imm", "imm12")),
    Form.RD_IMM32: (("rd", "reg"), ("imm", "imm32")),
    Form.RD_IMM20: (("rd", "reg"), ("imm", "imm20")),
    Form.RD_IMMH: (("rd", "reg"), ("imm", "high20")),
    Form.RD_MEM: (("rd", "reg"), ("mem", "mem")),
    Form.MEM_RS: (("mem", "mem"), ("rs2", "reg")),
    Form.RD_RS: (("rd", "reg"), ("rs1", "reg")),
    Form.RD_RS_RS: (("rd", "reg"), ("rs1", "reg"), ("rs2", "reg")),
    Form.RD_RS_IMM: (("rd", "reg"), ("rs1", "reg"), ("imm", "imm12")),
    Form.RS_RS: (("rs1", "reg"), ("rs2", "reg")),
    Form.RS_IMM: (("rs1", "reg"), ("imm", "imm12")),
    Form.RS: (("rs1", "reg"),),
    Form.RD: (("rd", "reg"),),
    Form.ABS12: (("imm", "jump"),),
    Form.CALL12: (("imm", "jump"),),
    Form.REL24: (("imm", "rel24"),),
}
_SLOT_NAMES = {"rd": "Rd", "rs1": "Ra", "rs2": "Rb", "mem": "[Ra+offset]", "imm": "imm"}
_PSEUDO = {"NOP": ("MOV", 0, 0)}        # mnemonic -> (real mnemonic, rd, rs1)
_DATA_UNITS = {".byte": 1, ".half": 2, ".hword": 2, ".word": 4}


@dataclass(frozen=True)
class _Fixup:
    section: str              # 'code' (position = word index) or 'rodata' (byte offset)
    position: int
    rtype: str
    expr: Expr
    loc: SourceLocation
    pc_relative: bool = False


class _Skip(Exception):
    """The current statement is wrong and has been reported; go on with the next."""


class Assembler:
    def __init__(self, sink: DiagnosticSink, top_file: str,
                 function_sections: bool = False) -> None:
        self.sink = sink
        self.function_sections = function_sections   # references between atoms stay
        self._atoms: list[int] | None = None           # relocations (hsx.toolchain.gc)
        self.top_file = top_file
        self.top_dir = os.path.dirname(top_file) or "."
        self.section = "text"
        self.code: list[int] = []
        self.data = bytearray()
        self.bss_size = 0
        self.data_align = 4
        self.bss_align = 4
        self.labels: dict[str, tuple[SymbolDef, SourceLocation]] = {}
        self.equs: dict[str, tuple[Expr, SourceLocation]] = {}
        self.exports: dict[str, SourceLocation] = {}
        self.externs: dict[str, SourceLocation] = {}
        self.imports: dict[str, SourceLocation] = {}
        self.entry: tuple[int | str, SourceLocation] | None = None
        self.fixups: list[_Fixup] = []
        self.lines: list[LineEntry] = []
        self.metadata: dict[str, list[dict]] = {kind: [] for kind in metadata.KINDS.values()}
        self._names_of: dict[str, str] = {}         # path -> its name in artefacts
        self.files: dict[str, int] = {self._name(top_file): 0}
        self.handlers: list[tuple[str, SourceLocation]] = []   # command handler labels
        self._resolving: set[str] = set()

    # -- driver ---------------------------------------------------------------------

    def assemble(self, statements: list[Statement]) -> ObjectModule:
        try:
            self._collect_equs(statements)
            for statement in statements:
                try:
                    self._statement(statement)
                except _Skip:
                    pass
            self._check_declarations()
            relocs = self._resolve_fixups()
        except TooManyErrors:
            relocs = []
        self.sink.check()
        return self._module(relocs)

    def _statement(self, statement: Statement) -> None:
        if isinstance(statement, Label):
            self._define_label(statement)
        elif isinstance(statement, Directive):
            handler = _DIRECTIVES.get(statement.name)
            if handler is None:
                self._fail(f"unknown directive '{statement.name}'", statement.loc)
            handler(self, statement)
        else:
            self._instruction(statement)

    def _fail(self, message: str, loc: object) -> NoReturn:
        self.sink.error(message, loc)
        raise _Skip

    def _name(self, path: str) -> str:
        """A source file's name as stored in artefacts: relative to the top file."""
        name = self._names_of.get(path)
        if name is None:
            name = os.path.relpath(path, self.top_dir).replace(os.sep, "/")
            self._names_of[path] = name
        return name

    def _where(self, loc: SourceLocation) -> str:
        return f"{self._name(loc.file)}:{loc.line}:{loc.col}"

    # -- symbols --------------------------------------------------------------------

    def _collect_equs(self, statements: list[Statement]) -> None:
        """`.equ` constants may be used before their definition."""
        for statement in statements:
            if isinstance(statement, Directive) and statement.name in (".equ", ".set"):
                args = statement.args
                if len(args) != 2 or not isinstance(args[0], Name):
                    self.sink.error(f"{statement.name} takes NAME, expression", statement.loc)
                    continue
                name = args[0].name
                if name in self.equs:
                    first = self.equs[name][1]
                    self.sink.error(f"'{name}' is already defined at {first}", args[0].loc)
                    continue
                self.equs[name] = (args[1], args[0].loc)

    def _define_label(self, label: Label) -> None:
        name = label.name
        if register_number(name) is not None:
            self._fail(f"'{name}' is a register name and cannot be a label", label.loc)
        previous = self.labels.get(name) or self.equs.get(name)
        if previous is not None:
            self._fail(f"duplicate label '{name}' (first defined at {previous[1]})", label.loc)
        offset = {"text": len(self.code) * 4, "data": len(self.data), "bss": self.bss_size}
        symbol = SymbolDef(self.section, offset[self.section], self._name(label.loc.file),
                           label.loc.line)
        self.labels[name] = (symbol, label.loc)

    def _resolve_name(self, name: Name) -> Value:
        equ = self.equs.get(name.name)
        if equ is None:
            return Value(0, name.name)
        if name.name in self._resolving:
            raise ExpressionError(f"'{name.name}' is defined in terms of itself", name.loc)
        self._resolving.add(name.name)
        try:
            return evaluate(equ[0], self._resolve_name, self._difference)
        finally:
            self._resolving.discard(name.name)

    def _difference(self, a: str, b: str) -> int | None:
        first, second = self.labels.get(a), self.labels.get(b)
        if first and second and first[0].section == second[0].section:
            return first[0].offset - second[0].offset
        return None

    def _evaluate(self, expr: Expr) -> Value:
        try:
            return evaluate(expr, self._resolve_name, self._difference)
        except ExpressionError as exc:
            self._fail(exc.message, exc.loc)

    def _constant(self, expr: Operand, what: str, lo: int, hi: int) -> int:
        """A number known now (literals and `.equ` constants only)."""
        if isinstance(expr, (Register, Memory, KeyValue, String)):
            self._fail(f"{what} must be a number", expr.loc)
        value = self._evaluate(expr)
        if not value.is_constant:
            self._fail(f"{what} must be a constant, not the address of '{value.symbol}'",
                       expr.loc)
        if not lo <= value.addend <= hi:
            self._fail(f"{what} {value.addend} is out of range {lo}..{hi}", expr.loc)
        return value.addend

    # -- instructions ---------------------------------------------------------------

    def _instruction(self, stmt: Instruction) -> None:
        if self.section != "text":
            self._fail(f"instructions belong in .text (this is .{self.section})", stmt.loc)
        mnemonic, operands = stmt.mnemonic, stmt.operands
        if mnemonic in _PSEUDO:
            if operands:
                self._fail(f"{mnemonic} takes no operands", operands[0].loc)
            real, rd, rs1 = _PSEUDO[mnemonic]
            self._emit(stmt, encode(Encoded(BY_MNEMONIC[real], rd=rd, rs1=rs1)))
            return
        op = BY_MNEMONIC.get(mnemonic)
        if op is None:
            self._fail(f"unknown mnemonic '{mnemonic}'", stmt.loc)
        if op.form is Form.SVC:
            self._emit(stmt, encode(Encoded(op, imm=self._svc_number(stmt))))
        elif op.form is Form.BRK:
            if len(operands) > 1:
                self._fail("BRK takes at most one operand (a code 0..255)", operands[1].loc)
            code = self._constant(operands[0], "BRK code", 0, 255) if operands else 0
            self._emit(stmt, encode(Encoded(op, imm=code)))
        elif op.form is Form.CALL12 and len(operands) == 1 and isinstance(operands[0], Memory):
            self._emit(stmt, encode(self._register_call(op, operands[0])))
        else:
            self._generic(op, stmt)

    def _generic(self, op: Opcode, stmt: Instruction) -> None:
        slots = _SLOTS[op.form]
        operands = stmt.operands
        if len(operands) != len(slots):
            syntax = ", ".join(_SLOT_NAMES[field] for field, _ in slots) or "no operands"
            where = operands[len(slots)].loc if len(operands) > len(slots) else stmt.loc
            self._fail(f"{op.mnemonic} takes {len(slots)} operand(s): {op.mnemonic} {syntax}",
                       where)
        fields = {"rd": 0, "rs1": 0, "rs2": 0}
        pending: list[tuple[str, Expr, SourceLocation]] = []
        for (field, kind), operand in zip(slots, operands):
            if kind == "reg":
                if not isinstance(operand, Register):
                    self._fail(f"{op.mnemonic} expects a register for {_SLOT_NAMES[field]}",
                               operand.loc)
                fields[field] = operand.number
            elif kind == "mem":
                if not isinstance(operand, Memory):
                    self._fail(f"{op.mnemonic} expects a memory operand [Ra+offset]", operand.loc)
                fields["rs1"] = operand.base.number
                if operand.offset is not None:
                    pending.append(("mem", operand.offset, operand.loc))
            else:
                if isinstance(operand, (Register, Memory, KeyValue, String)):
                    what = "a branch target" if kind in ("jump", "rel24") else "an immediate"
                    self._fail(f"{op.mnemonic} expects {what} here", operand.loc)
                pending.append((kind, operand, operand.loc))
        index = len(self.code)
        self._emit(stmt, encode(Encoded(op, **fields)))
        for rtype, expr, loc in pending:
            position = index + 1 if rtype == "imm32" else index
            pc_relative = op.form in (Form.CALL12, Form.REL24)
            self.fixups.append(_Fixup("code", position, rtype, expr, loc, pc_relative))

    def _register_call(self, op: Opcode, operand: Memory) -> Encoded:
        if operand.base.number == 0:
            self._fail("CALL [R0+offset] is not available: base R0 means PC-relative; "
                       "use another register or CALLR", operand.base.loc)
        lo, hi = IMM_RANGE[op.form]
        offset = 0
        if operand.offset is not None:
            offset = self._constant(operand.offset, "CALL offset", 4 * lo, 4 * hi)
        if offset % 4:
            self._fail(f"CALL offset {offset} must be a multiple of 4", operand.loc)
        return Encoded(op, rs1=operand.base.number, imm=offset // 4)

    def _svc_number(self, stmt: Instruction) -> int:
        """`SVC n`, `SVC mod, fn` or `SVC MOD=m FN=f` -> imm12 = mod << 8 | fn."""
        operands = stmt.operands
        if len(operands) == 1 and not isinstance(operands[0], KeyValue):
            return self._constant(operands[0], "SVC number", 0, 0xFFF)
        if len(operands) != 2:
            self._fail("SVC takes a number, 'mod, fn' or 'MOD=m, FN=f'", stmt.loc)
        keyed = [isinstance(o, KeyValue) for o in operands]
        if all(keyed):
            by_key = {o.key: o for o in operands}
            for key in ("MOD", "FN"):
                if key not in by_key:
                    self._fail(f"SVC needs {key}=", stmt.loc)
            mod_expr, fn_expr = by_key["MOD"].value, by_key["FN"].value
        elif any(keyed):
            self._fail("SVC: write either 'MOD=m, FN=f' or 'mod, fn'", stmt.loc)
        else:
            mod_expr, fn_expr = operands
        mod = self._constant(mod_expr, "SVC module", 0, 0xF)
        fn = self._constant(fn_expr, "SVC function", 0, 0xFF)
        return (mod << 8) | fn

    def _emit(self, stmt: Instruction | Directive, words: list[int]) -> None:
        file_index = self.files.setdefault(self._name(stmt.loc.file), len(self.files))
        self.lines.append(LineEntry(len(self.code), file_index, stmt.loc.line))
        self.code.extend(words)

    # -- directives -----------------------------------------------------------------

    def _need_section(self, stmt: Directive, *sections: str) -> None:
        if self.section not in sections:
            allowed = " or ".join("." + s for s in sections)
            self._fail(f"'{stmt.name}' is only allowed in {allowed} (this is .{self.section})",
                       stmt.loc)

    def _switch(self, stmt: Directive) -> None:
        if stmt.args:
            self._fail(f"'{stmt.name}' takes no operands", stmt.args[0].loc)
        self.section = {".text": "text", ".data": "data", ".rodata": "data",
                        ".bss": "bss"}[stmt.name]

    def _names(self, stmt: Directive) -> list[Name]:
        if not stmt.args:
            self._fail(f"'{stmt.name}' needs at least one symbol name", stmt.loc)
        for arg in stmt.args:
            if not isinstance(arg, Name):
                self._fail(f"'{stmt.name}' takes symbol names", arg.loc)
        return list(stmt.args)

    def _export(self, stmt: Directive) -> None:
        for name in self._names(stmt):
            self.exports.setdefault(name.name, name.loc)

    def _extern(self, stmt: Directive) -> None:
        for name in self._names(stmt):
            self.externs.setdefault(name.name, name.loc)

    def _import(self, stmt: Directive) -> None:
        for name in self._names(stmt):
            self.imports.setdefault(name.name, name.loc)

    def _entry(self, stmt: Directive) -> None:
        if self.entry is not None:
            self._fail(f"entry point already set at {self.entry[1]}", stmt.loc)
        if len(stmt.args) > 1:
            self._fail(".entry takes at most one operand", stmt.args[1].loc)
        if not stmt.args:
            self._need_section(stmt, "text")
            self.entry = (len(self.code) * 4, stmt.loc)
        elif isinstance(stmt.args[0], Name) and stmt.args[0].name not in self.equs:
            self.entry = (stmt.args[0].name, stmt.args[0].loc)
        else:
            offset = self._constant(stmt.args[0], "entry offset", 0, MAX_CODE_LEN - 4)
            if offset % 4:
                self._fail(f"entry offset 0x{offset:X} is not a multiple of 4", stmt.args[0].loc)
            self.entry = (offset, stmt.args[0].loc)

    def _org(self, stmt: Directive) -> None:
        self._need_section(stmt, "text")
        if len(stmt.args) != 1:
            self._fail(".org takes one operand (a byte offset)", stmt.loc)
        target = self._constant(stmt.args[0], ".org offset", 0, MAX_CODE_LEN - 4)
        here = len(self.code) * 4
        if target % 4:
            self._fail(f".org offset 0x{target:X} is not a multiple of 4", stmt.args[0].loc)
        if target < here:
            self._fail(f".org 0x{target:X} is behind the current offset 0x{here:X}",
                       stmt.args[0].loc)
        self.code.extend([0] * ((target - here) // 4))

    def _align(self, stmt: Directive) -> None:
        if len(stmt.args) != 1:
            self._fail(".align takes one operand (the alignment in bytes)", stmt.loc)
        n = self._constant(stmt.args[0], "alignment", 1, 0x10000)
        if self.section == "text":
            if n & (n - 1):
                self._fail(f".align {n} in .text: use a power of two", stmt.args[0].loc)
            nop = encode(Encoded(BY_MNEMONIC["MOV"]))
            while (len(self.code) * 4) % n:
                self.code.extend(nop)
        elif self.section == "data":
            self.data.extend(bytes(-len(self.data) % n))
            self.data_align = math.lcm(self.data_align, n)
        else:
            self.bss_size += -self.bss_size % n
            self.bss_align = math.lcm(self.bss_align, n)

    def _reserve(self, stmt: Directive) -> None:
        self._need_section(stmt, "data", "bss")
        if len(stmt.args) != 1:
            self._fail(f"'{stmt.name}' takes one operand (a byte count)", stmt.loc)
        count = self._constant(stmt.args[0], "byte count", 0, MAX_BSS_SIZE)
        if self.section == "data":
            self.data.extend(bytes(count))
        else:
            self.bss_size += count

    def _data(self, stmt: Directive) -> None:
        if self.section == "text" and stmt.name == ".word":
            self._text_words(stmt)
            return
        self._need_section(stmt, "data")
        if not stmt.args:
            self._fail(f"'{stmt.name}' needs at least one value", stmt.loc)
        size = _DATA_UNITS[stmt.name]
        for arg in stmt.args:
            if isinstance(arg, String):
                if size != 1:
                    self._fail(f"strings are only allowed in .byte/.ascii, not '{stmt.name}'",
                               arg.loc)
                self.data.extend(self._string_bytes(arg))
            elif isinstance(arg, (Register, Memory, KeyValue)):
                self._fail(f"'{stmt.name}' takes numbers, symbols or strings", arg.loc)
            else:
                rtype = {1: "data_byte", 2: "data_half", 4: "data_word"}[size]
                self.fixups.append(_Fixup("rodata", len(self.data), rtype, arg, arg.loc))
                self.data.extend(bytes(size))

    def _text_words(self, stmt: Directive) -> None:
        """`.word` in .text emits raw words (the disassembler's form for illegal words)."""
        if not stmt.args:
            self._fail(".word needs at least one value", stmt.loc)
        for arg in stmt.args:
            if isinstance(arg, (Register, Memory, KeyValue, String)):
                self._fail(".word takes numbers or symbols", arg.loc)
            self.fixups.append(_Fixup("code", len(self.code), "imm32", arg, arg.loc))
            self._emit(stmt, [0])

    def _strings(self, stmt: Directive) -> None:
        self._need_section(stmt, "data")
        if not stmt.args:
            self._fail(f"'{stmt.name}' needs a string", stmt.loc)
        for arg in stmt.args:
            if isinstance(arg, String):
                self.data.extend(self._string_bytes(arg))
            else:                      # 'c' is a number to the parser; prior code wrote .ascii 'c'
                self.data.append(self._constant(arg, "character", 0, 255))
            if stmt.name != ".ascii":
                self.data.append(0)

    def _string_bytes(self, string: String) -> bytes:
        """One byte per character, as the prior assembler did (so not UTF-8)."""
        wide = next((c for c in string.text if ord(c) > 0xFF), None)
        if wide is not None:
            self._fail(f"character {wide!r} does not fit a byte; write its UTF-8 bytes "
                       f"with \\x escapes", string.loc)
        return string.text.encode("latin-1")

    def _equ(self, stmt: Directive) -> None:
        """Collected before the walk (see _collect_equs)."""

    def _metadata(self, stmt: Directive) -> None:
        try:
            records = metadata.parse_payload(stmt.name, stmt.raw)
        except metadata.MetadataError as exc:
            col = stmt.loc.col + len(stmt.name) + 1
            self._fail(str(exc), SourceLocation(stmt.loc.file, stmt.loc.line, col))
        kind = metadata.KINDS[stmt.name]
        for record in records:
            if isinstance(record.get("handler"), str):
                self.handlers.append((record["handler"], stmt.loc))
            self.metadata[kind].append(record)

    # -- after the walk -------------------------------------------------------------

    def _check_declarations(self) -> None:
        for name, loc in self.exports.items():
            if name not in self.labels:
                what = "an .equ constant" if name in self.equs else "not defined in this file"
                self.sink.error(f"cannot export '{name}': {what}", loc)
        for name, loc in self.imports.items():
            if name in self.labels:
                self.sink.error(f"'{name}' is declared .import but defined in this file", loc)
        for name, loc in self.handlers:
            symbol = self.labels.get(name)
            if symbol is not None and symbol[0].section != "text":
                self.sink.error(f"command handler '{name}' is not a code label", loc)
        if self.entry is not None:
            target, loc = self.entry
            if isinstance(target, str):
                symbol = self.labels.get(target)
                if symbol is None or symbol[0].section != "text":
                    self.sink.error(f"entry symbol '{target}' is not a code label of this file",
                                    loc)
            elif target >= len(self.code) * 4 and self.code:
                self.sink.error(f"entry offset 0x{target:X} is outside the code "
                                f"({len(self.code) * 4} bytes)", loc)

    def _resolve_fixups(self) -> list[Relocation]:
        relocs: list[Relocation] = []
        for fixup in self.fixups:
            try:
                reloc = self._resolve(fixup)
            except _Skip:
                continue
            except fixups.FixupError as exc:
                self.sink.error(str(exc), fixup.loc)
                continue
            if reloc is not None:
                relocs.append(reloc)
        return relocs

    def _resolve(self, fixup: _Fixup) -> Relocation | None:
        value = self._evaluate(fixup.expr)
        branch = fixup.rtype in ("jump", "rel24")
        if value.kind != "symbol" and branch:
            self._fail(f"a branch target cannot be {value.kind}()", fixup.loc)
        local = self.labels.get(value.symbol) if value.symbol else None
        if branch and local and local[0].section != "text":
            self._fail(f"branch target '{value.symbol}' is a data label", fixup.loc)
        if value.is_constant:
            self._patch(fixup, value.addend)
            return None
        if fixup.pc_relative and local is not None and \
                self._same_atom(4 * fixup.position, local[0].offset):
            self._patch(fixup, local[0].offset + value.addend)
            return None
        return Relocation(type=fixup.rtype, section=fixup.section, position=fixup.position,
                          symbol=value.symbol, kind=value.kind, addend=value.addend,
                          pc_relative=fixup.pc_relative and fixup.rtype == "jump",
                          at=self._where(fixup.loc))

    def _same_atom(self, here: int, there: int) -> bool:
        """Whether two code offsets are in one function (always, unless the module is
        assembled with function sections)."""
        if not self.function_sections:
            return True
        if self._atoms is None:
            self._atoms = sorted({0} | {s.offset for name, (s, _) in self.labels.items()
                                        if s.section == "text" and starts_atom(name, "text")})
        return bisect.bisect_right(self._atoms, here) == bisect.bisect_right(self._atoms, there)

    def _patch(self, fixup: _Fixup, value: int) -> None:
        if fixup.section == "rodata":
            fixups.patch_data(self.data, fixup.position, fixup.rtype, value)
            return
        self.code[fixup.position] = fixups.patch_code(
            self.code[fixup.position], fixup.rtype, value, 4 * fixup.position, fixup.pc_relative)

    def _module(self, relocs: list[Relocation]) -> ObjectModule:
        symbols = {name: entry[0] for name, entry in self.labels.items()}
        exports = set(self.exports) | {n for n in self.externs if n in symbols}
        entry, entry_symbol = 0, None
        if self.entry is not None:
            target = self.entry[0]
            if isinstance(target, str):
                entry_symbol = target
                entry = symbols[target].offset
                exports.add(target)
            else:
                entry = target
        return ObjectModule(
            code=self.code, rodata=bytes(self.data), bss_size=self.bss_size, entry=entry,
            entry_symbol=entry_symbol, entry_declared=self.entry is not None, symbols=symbols,
            exports=frozenset(n for n in exports if n in symbols),
            externs=tuple(sorted(n for n in self.externs if n not in symbols)),
            imports=tuple(sorted(self.imports)), relocs=relocs, metadata=self.metadata,
            files=tuple(self.files), lines=self.lines, data_align=self.data_align,
            bss_align=self.bss_align, function_sections=self.function_sections,
            name=self.top_file,
            source_dir="" if self.top_dir == "." else self.top_dir)


_DirectiveHandler = Callable[[Assembler, Directive], None]
_DIRECTIVES: dict[str, _DirectiveHandler] = {
    ".text": Assembler._switch, ".data": Assembler._switch, ".rodata": Assembler._switch,
    ".bss": Assembler._switch,
    ".export": Assembler._export, ".global": Assembler._export, ".globl": Assembler._export,
    ".extern": Assembler._extern, ".import": Assembler._import,
    ".entry": Assembler._entry, ".org": Assembler._org, ".align": Assembler._align,
    ".zero": Assembler._reserve, ".space": Assembler._reserve, ".skip": Assembler._reserve,
    ".byte": Assembler._data, ".half": Assembler._data, ".hword": Assembler._data,
    ".word": Assembler._data,
    ".ascii": Assembler._strings, ".asciz": Assembler._strings, ".string": Assembler._strings,
    ".equ": Assembler._equ, ".set": Assembler._equ,
    ".value": Assembler._metadata, ".cmd": Assembler._metadata, ".mailbox": Assembler._metadata,
}
