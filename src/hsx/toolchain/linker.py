"""Link object modules into one `HxeImage` and its `SymbolTable`.

Layout follows the command line: code back to back; each module's rodata at a
multiple of its alignment (4 or more, so `.align` and word loads stay correct); bss
after all rodata, at `RODATA_BASE + ro_len` rounded up to 4 (the linker pads rodata so
that this start is aligned enough for every module's bss).  A symbol is looked up in
the referencing module's own labels first, then among all modules' exports, so one
module cannot capture another's local label; names in `LinkOptions.weak` that nothing
defines resolve to 0 (weak references).  Equal inputs give byte-equal outputs.
"""
from __future__ import annotations

import bisect
import math
import os
from dataclasses import dataclass, field
from typing import Any, Sequence

from hsx.image.errors import ImageError
from hsx.image.hxe import write_hxe
from hsx.image.hxo import ObjectModule, Relocation
from hsx.image.model import (FLAG_ALLOW_MULTIPLE, RODATA_BASE, HxeImage, Metadata)
from hsx.image.sym import LineInfo, MemoryRegion, Symbol, SymbolTable

from . import fixups, gc, metadata
from .diagnostics import DiagnosticSink, TooManyErrors


@dataclass(frozen=True)
class LinkOptions:
    entry: str | None = None              # symbol to start at (else _start, else .entry)
    app_name: str | None = None
    allow_multiple: bool = True
    req_caps: int = 0
    # weak references: these names resolve to address 0 when no module defines them
    # (C `__attribute__((weak))` declarations, e.g. optional parts of the C library)
    weak: frozenset[str] = frozenset()
    # leave out the functions and data nothing reachable uses (hsx.toolchain.gc)
    gc_sections: bool = False


@dataclass
class LinkResult:
    image: HxeImage
    symbols: SymbolTable
    warnings: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class _Placed:
    """Where one module landed (bases are byte offsets into the linked sections)."""

    module: ObjectModule
    code_base: int
    data_base: int
    bss_base: int


@dataclass(frozen=True)
class _Target:
    address: int
    section: str


def _align(value: int, alignment: int) -> int:
    return -(-value // alignment) * alignment


class Linker:
    def __init__(self, modules: Sequence[ObjectModule], options: LinkOptions,
                 sink: DiagnosticSink) -> None:
        self.modules = list(modules)
        if options.gc_sections:
            exported = {n for m in self.modules for n in m.exports}
            entry = options.entry or ("_start" if "_start" in exported else None)
            self.modules = gc.collect(self.modules, entry)
        self.options = options
        self.sink = sink
        self.warnings: list[str] = []
        self.placed: list[_Placed] = []
        self.exports: dict[str, tuple[_Target, ObjectModule]] = {}
        self.bss_start = 0                # offset from RODATA_BASE

    def link(self) -> LinkResult:
        if not self.modules:
            self.sink.error("nothing to link: no object modules given")
        try:
            code, rodata, bss_size = self._layout()
            self._collect_exports()
            self._relocate(code, rodata)
            merged = self._metadata()
            entry = self._entry()
        except TooManyErrors:
            pass
        self.sink.check()
        image = HxeImage(
            code=b"".join(w.to_bytes(4, "big") for w in code), rodata=bytes(rodata),
            entry=entry, bss_size=bss_size, req_caps=self.options.req_caps,
            flags=FLAG_ALLOW_MULTIPLE if self.options.allow_multiple else 0,
            app_name=self.options.app_name, metadata=merged)
        try:
            image.crc = int.from_bytes(write_hxe(image)[0x1C:0x20], "big")
        except ImageError as exc:
            self.sink.error(exc.message)
        self.sink.check()
        symbols = self._symbol_table(len(code) * 4, len(rodata), bss_size, image.crc)
        return LinkResult(image, symbols, self.warnings)

    # -- layout ---------------------------------------------------------------------

    def _layout(self) -> tuple[list[int], bytearray, int]:
        code: list[int] = []
        rodata = bytearray()
        data_bases = []
        for module in self.modules:
            base = _align(len(rodata), max(4, module.data_align))
            rodata.extend(bytes(base - len(rodata)))
            rodata.extend(module.rodata)
            data_bases.append(base)
        bss_alignment = math.lcm(4, *(m.bss_align for m in self.modules if m.bss_size))
        if bss_alignment > 4:
            rodata.extend(bytes(_align(len(rodata), bss_alignment) - len(rodata)))
        self.bss_start = _align(len(rodata), 4)
        bss_cursor = 0
        for module, data_base in zip(self.modules, data_bases):
            bss_base = _align(bss_cursor, max(4, module.bss_align))
            self.placed.append(_Placed(module, 4 * len(code), data_base, bss_base))
            code.extend(module.code)
            bss_cursor = bss_base + module.bss_size
        return code, rodata, bss_cursor

    def _address(self, placed: _Placed, section: str, offset: int) -> int:
        if section == "text":
            return placed.code_base + offset
        if section == "data":
            return RODATA_BASE + placed.data_base + offset
        return RODATA_BASE + self.bss_start + placed.bss_base + offset

    # -- symbols --------------------------------------------------------------------

    def _collect_exports(self) -> None:
        for placed in self.placed:
            module = placed.module
            for name in sorted(module.exports):
                symbol = module.symbols.get(name)
                if symbol is None:
                    self.sink.error(f"exports '{name}' but does not define it", module.name)
                    continue
                if name in self.exports:
                    other = self.exports[name][1]
                    self.sink.error(f"symbol '{name}' is exported by both {other.name} and "
                                    f"{module.name}", module.name)
                    continue
                target = _Target(self._address(placed, symbol.section, symbol.offset),
                                 symbol.section)
                self.exports[name] = (target, module)
        for module in self.modules:
            for name in module.imports:
                if name not in self.exports:
                    self.sink.error(f"imports '{name}', which no module exports", module.name)

    def _resolve(self, placed: _Placed, name: str) -> _Target | None:
        own = placed.module.symbols.get(name)
        if own is not None:
            return _Target(self._address(placed, own.section, own.offset), own.section)
        exported = self.exports.get(name)
        if exported is None and name in self.options.weak:
            return _Target(0, "text")
        return exported[0] if exported else None

    # -- relocation -----------------------------------------------------------------

    def _relocate(self, code: list[int], rodata: bytearray) -> None:
        for placed in self.placed:
            source_dir = placed.module.source_dir
            for reloc in placed.module.relocs:
                where = placed.module.name
                if reloc.at:
                    where = os.path.join(source_dir, reloc.at) if source_dir else reloc.at
                try:
                    self._apply(placed, reloc, code, rodata)
                except fixups.FixupError as exc:
                    self.sink.error(f"{exc} (symbol '{reloc.symbol}' in "
                                    f"{placed.module.name})", where)
                except _Unresolved as exc:
                    self.sink.error(str(exc), where)

    def _apply(self, placed: _Placed, reloc: Relocation, code: list[int],
               rodata: bytearray) -> None:
        module = placed.module
        target = self._resolve(placed, reloc.symbol)
        if target is None:
            raise _Unresolved(f"undefined symbol '{reloc.symbol}' (referenced by {module.name})")
        if reloc.kind not in fixups.KINDS:
            raise fixups.FixupError(f"unknown relocation kind '{reloc.kind}'")
        value = fixups.apply_kind(reloc.kind, target.address + reloc.addend,
                                  fixups.section_base(target.section))
        if reloc.section == "rodata":
            size = fixups.DATA_SIZES.get(reloc.type, 0)
            if not 0 <= reloc.position <= len(module.rodata) - size:
                raise fixups.FixupError(f"relocation at rodata offset {reloc.position} is "
                                        f"outside the module's data")
            fixups.patch_data(rodata, placed.data_base + reloc.position, reloc.type, value)
            return
        if reloc.type not in fixups.CODE_TYPES or not 0 <= reloc.position < len(module.code):
            raise fixups.FixupError(f"bad code relocation {reloc.type} at word {reloc.position}")
        index = placed.code_base // 4 + reloc.position
        branch = reloc.type == "rel24" or reloc.pc_relative
        if branch and target.section != "text":
            raise fixups.FixupError(f"branch target '{reloc.symbol}' is not a code label")
        if reloc.type == "imm20" and not fixups.fits_imm20(value):
            raise fixups.FixupError(f"LDI20: the address 0x{value & 0xFFFFFFFF:X} is beyond its "
                                    f"reach (below 0x80000); {fixups.FAR_ADDRESSES}")
        code[index] = fixups.patch_code(code[index], reloc.type, value, 4 * index,
                                        reloc.pc_relative)

    # -- metadata -------------------------------------------------------------------

    def _metadata(self) -> Metadata:
        seen: dict[tuple, ObjectModule] = {}
        merged = Metadata()
        for placed in self.placed:
            module = placed.module
            for kind in ("values", "commands", "mailboxes"):
                for raw in module.metadata.get(kind, []):
                    try:
                        record = metadata.normalize(kind, dict(raw))
                    except metadata.MetadataError as exc:
                        self.sink.error(str(exc), module.name)
                        continue
                    key = (kind,) + metadata.record_key(kind, record)
                    if key in seen:
                        self.sink.error(f"duplicate {metadata.describe_key(kind, key[1:])}, "
                                        f"also declared by {seen[key].name}", module.name)
                        continue
                    seen[key] = module
                    self._add_record(placed, kind, record, merged)
        merged.values.sort(key=lambda v: (v.group, v.value))
        merged.commands.sort(key=lambda c: (c.group, c.cmd))
        merged.mailboxes.sort(key=lambda m: m.target)
        return merged

    def _add_record(self, placed: _Placed, kind: str, record: dict[str, Any],
                    merged: Metadata) -> None:
        if kind == "values":
            if "rate_ms" in record:
                self.warnings.append(
                    f"{placed.module.name}: rate_ms of value ({record['group']},"
                    f"{record['value']}) is not stored: HXE v2 value records have no field "
                    f"for it")
            merged.values.append(metadata.value_spec(record))
        elif kind == "commands":
            handler = record.get("handler")
            offset = record.get("handler_offset", 0)
            if handler is not None:
                target = self._resolve(placed, handler)
                if target is None or target.section != "text":
                    what = "not defined" if target is None else "not a code label"
                    self.sink.error(f"command ({record['group']},{record['cmd']}) handler "
                                    f"'{handler}' is {what}", placed.module.name)
                    return
                offset = target.address
            merged.commands.append(metadata.command_spec(record, offset))
        else:
            merged.mailboxes.append(metadata.mailbox_spec(record))

    # -- entry ----------------------------------------------------------------------

    def _entry(self) -> int:
        wanted = self.options.entry
        if wanted is not None:
            return self._entry_by_name(wanted)
        if "_start" in self.exports:
            return self.exports["_start"][0].address
        declaring = [p for p in self.placed if p.module.entry_declared]
        if len(declaring) > 1:
            names = ", ".join(p.module.name for p in declaring)
            self.warnings.append(f"several modules declare an entry point ({names}); using "
                                 f"the first, {declaring[0].module.name} (choose with --entry)")
        if not declaring:
            return 0
        placed = declaring[0]
        name = placed.module.entry_symbol
        if name is not None:
            target = self._resolve(placed, name)
            if target is not None:
                return target.address
            self.sink.error(f"entry symbol '{name}' is not defined", placed.module.name)
        return placed.code_base + placed.module.entry

    def _entry_by_name(self, name: str) -> int:
        if name in self.exports:
            target = self.exports[name][0]
        else:
            found = [self._resolve(p, name) for p in self.placed if name in p.module.symbols]
            if len(found) != 1:
                problem = "is not defined" if not found else \
                    f"is a local label of {len(found)} modules; export the one to use"
                self.sink.error(f"entry symbol '{name}' {problem}")
                return 0
            target = found[0]
        if target.section != "text":
            self.sink.error(f"entry symbol '{name}' is not a code label")
        return target.address

    # -- symbol table ---------------------------------------------------------------

    def _symbol_table(self, code_len: int, ro_len: int, bss_size: int, crc: int) -> SymbolTable:
        functions: list[Symbol] = []
        variables: list[Symbol] = []
        lines: list[LineInfo] = []
        for placed in self.placed:
            module = placed.module
            ends = {"text": len(module.code) * 4, "data": len(module.rodata),
                    "bss": module.bss_size}
            for section, symbols in (("text", functions), ("data", variables),
                                     ("bss", variables)):
                labels = sorted((s.offset, n, s) for n, s in module.symbols.items()
                                if s.section == section)
                starts = sorted({offset for offset, _, _ in labels} | {ends[section]})
                for offset, name, symbol in labels:
                    i = bisect.bisect_right(starts, offset)
                    following = starts[i] if i < len(starts) else offset
                    symbols.append(Symbol(
                        name=name, address=self._address(placed, section, offset),
                        size=following - offset, section=section,
                        scope="global" if name in module.exports else "local",
                        file=symbol.file, line=symbol.line))
            for entry in module.lines:
                lines.append(LineInfo(placed.code_base + 4 * entry.index,
                                      module.files[entry.file], entry.line))
        regions = [MemoryRegion("code", "text", 0, code_len - 1)]
        if ro_len:
            regions.append(MemoryRegion("rodata", "data", RODATA_BASE, RODATA_BASE + ro_len - 1))
        if bss_size:
            start = RODATA_BASE + self.bss_start
            regions.append(MemoryRegion("bss", "bss", start, start + bss_size - 1))
        return SymbolTable(functions, variables, lines, regions, crc)


class _Unresolved(Exception):
    pass


def link(modules: Sequence[ObjectModule], options: LinkOptions = LinkOptions(),
         sink: DiagnosticSink | None = None) -> LinkResult:
    """Link `modules` (in order); raises ToolchainError listing every problem."""
    return Linker(modules, options, sink or DiagnosticSink()).link()
