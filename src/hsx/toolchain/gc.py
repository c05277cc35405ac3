"""Linker garbage collection (`--gc-sections`): leave out the functions and data that
nothing reachable from the entry point refers to.

A module assembled with `function_sections` (what `hsx cc` makes, the C library's
members too) is a row of atoms: each function, from its label to the next function's
(`.L` labels are blocks inside it), and each object of data or bss, from its label to
the next label.  Every reference from one atom to another is a relocation there (the
assembler patches only references inside an atom), so atoms can be dropped and the
rest moved closer.  The live atoms are those the roots reach through relocations,
weak ones included; the roots are the entry point, every module without
`function_sections` (hand-written MVASM is kept whole) and the command handlers the
metadata names.  Each module is then rebuilt from its live atoms: code, data, bss,
symbols, relocations, line table and entry offset renumbered, data keeping its offset
modulo the module's alignment.  Equal inputs give equal outputs.
"""
from __future__ import annotations

import bisect
from dataclasses import dataclass, replace
from typing import Sequence

from hsx.image.hxo import LineEntry, ObjectModule, Relocation

SECTIONS = ("text", "data", "bss")


def starts_atom(name: str, section: str) -> bool:
    """Whether a label begins an atom: a function's label in text (not a `.L` block
    label), any label in data and bss."""
    return section != "text" or not name.startswith(".L")


def atom_starts(module: ObjectModule, section: str) -> list[int]:
    """The byte offsets where the atoms of one section begin (0 always does)."""
    return sorted({0} | {s.offset for n, s in module.symbols.items()
                         if s.section == section and starts_atom(n, section)})


@dataclass(frozen=True)
class _Atom:
    module: int
    section: str
    start: int


def _section_size(module: ObjectModule, section: str) -> int:
    return {"text": 4 * len(module.code), "data": len(module.rodata),
            "bss": module.bss_size}[section]


class _Modules:
    """The atoms of the modules and the references between them."""

    def __init__(self, modules: Sequence[ObjectModule]) -> None:
        self.modules = modules
        self.starts = [{s: atom_starts(m, s) for s in SECTIONS} for m in modules]
        self.exports: dict[str, int] = {}
        for k, module in enumerate(modules):
            for name in module.exports:
                self.exports.setdefault(name, k)

    def atom_at(self, k: int, section: str, offset: int) -> _Atom:
        starts = self.starts[k][section]
        return _Atom(k, section, starts[bisect.bisect_right(starts, offset) - 1])

    def atom_of(self, k: int, name: str) -> _Atom | None:
        """The atom defining `name` as module `k` sees it (its own label first)."""
        symbol = self.modules[k].symbols.get(name)
        if symbol is None:
            owner = self.exports.get(name)
            if owner is None:
                return None
            k, symbol = owner, self.modules[owner].symbols[name]
        return self.atom_at(k, symbol.section, symbol.offset)

    def source(self, k: int, reloc: Relocation) -> _Atom:
        if reloc.section == "code":
            return self.atom_at(k, "text", 4 * reloc.position)
        return self.atom_at(k, "data", reloc.position)

    def whole(self, k: int) -> list[_Atom]:
        return [_Atom(k, s, start) for s in SECTIONS for start in self.starts[k][s]]


def collect(modules: Sequence[ObjectModule], entry: str | None) -> list[ObjectModule]:
    """`modules` without the atoms nothing reaches from `entry` (a symbol; None: the
    declared entry points) and the other roots."""
    if not any(m.function_sections for m in modules):
        return list(modules)
    atoms = _Modules(modules)
    edges: dict[_Atom, list[_Atom]] = {}
    roots: list[_Atom] = []
    for k, module in enumerate(modules):
        for reloc in module.relocs:
            target = atoms.atom_of(k, reloc.symbol)
            if target is not None:
                edges.setdefault(atoms.source(k, reloc), []).append(target)
        if not module.function_sections:
            roots += atoms.whole(k)
        if entry is None and module.entry_declared:
            roots.append(atoms.atom_at(k, "text", module.entry))
        for record in module.metadata.get("commands", []):
            handler = record.get("handler")
            if isinstance(handler, str) and (found := atoms.atom_of(k, handler)):
                roots.append(found)
    if entry is not None:
        roots += [a for k in range(len(modules)) if (a := atoms.atom_of(k, entry))]
    live = set(roots)
    pending = list(roots)
    while pending:
        for target in edges.get(pending.pop(), ()):
            if target not in live:
                live.add(target)
                pending.append(target)
    kept = [_rebuild(m, k, atoms, live) if m.function_sections else m
            for k, m in enumerate(modules)]
    defined = {name for m in kept for name in m.exports}
    return [replace(m, imports=tuple(n for n in m.imports if n in defined)) for m in kept]


def _rebuild(module: ObjectModule, k: int, atoms: _Modules, live: set[_Atom]) -> ObjectModule:
    """The module made of its live atoms only."""
    moved: dict[str, dict[int, int]] = {}           # section -> old atom start -> new
    for section in SECTIONS:
        align = {"text": 4, "data": module.data_align, "bss": module.bss_align}[section]
        starts = atoms.starts[k][section]
        ends = starts[1:] + [_section_size(module, section)]
        cursor, moved[section] = 0, {}
        for start, end in zip(starts, ends):
            if _Atom(k, section, start) in live:
                cursor += (start - cursor) % max(align, 1)     # same offset mod alignment
                moved[section][start] = cursor
                cursor += end - start
        moved[section][-1] = cursor                           # the new size

    def new(section: str, offset: int) -> int | None:
        start = atoms.atom_at(k, section, offset).start
        base = moved[section].get(start)
        return None if base is None else base + offset - start

    code = [0] * (moved["text"][-1] // 4)
    rodata = bytearray(moved["data"][-1])
    for section, target in (("text", None), ("data", rodata)):
        starts = atoms.starts[k][section]
        ends = starts[1:] + [_section_size(module, section)]
        for start, end in zip(starts, ends):
            to = moved[section].get(start)
            if to is None:
                continue
            if target is None:
                code[to // 4:(to + end - start) // 4] = module.code[start // 4:end // 4]
            else:
                target[to:to + end - start] = module.rodata[start:end]
    symbols = {}
    for name, symbol in module.symbols.items():
        offset = new(symbol.section, symbol.offset)
        if offset is not None:
            symbols[name] = replace(symbol, offset=offset)
    relocs = []
    for reloc in module.relocs:
        section = "text" if reloc.section == "code" else "data"
        at = new(section, 4 * reloc.position if section == "text" else reloc.position)
        if at is not None:
            relocs.append(replace(reloc, position=at // 4 if section == "text" else at))
    lines = [LineEntry(at // 4, e.file, e.line) for e in module.lines
             if (at := new("text", 4 * e.index)) is not None]
    entry = new("text", module.entry) if module.entry_declared else module.entry
    return replace(module, code=code, rodata=bytes(rodata), bss_size=moved["bss"][-1],
                   symbols=symbols, exports=frozenset(n for n in module.exports if n in symbols),
                   relocs=relocs, lines=lines, entry=entry or 0)
