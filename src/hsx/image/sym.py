"""`.sym` symbol files: names, sizes and source lines of a linked image, for debuggers.

The JSON keeps the prior shape (`version`, `hxe_crc`, `symbols.functions`,
`symbols.variables`, `symbols.labels` keyed "0x%08X", `instructions`, `memory_regions`)
so existing readers work, but it is complete and exact: every label is listed, all
addresses are byte addresses, and file names are relative to the build directory for
files below it (`prog.c`; the C library's are `lib/...`), absolute for others.
`sources` (written by `hsx cc`) maps each file name to the absolute path the file had
when it was built, so a debugger finds it from anywhere.
Code and data are separate address spaces, so lookups say which one they mean.
"""
from __future__ import annotations

import bisect
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

SYM_VERSION = 1


class SymbolFileError(ValueError):
    """A `.sym` file that is not valid JSON or does not follow the schema."""


@dataclass(frozen=True)
class Symbol:
    """A label of the image.  `section` is 'text' (a function), 'data' or 'bss'."""

    name: str
    address: int
    size: int = 0
    section: str = "text"
    scope: str = "local"            # 'global' when exported
    file: str | None = None
    line: int | None = None
    body: int | None = None         # a -g C function: where its body begins, past the
                                    # prologue (breakpoints on the function stop there)
    type: int | None = None          # a C function's type (-g): an index into `types`

    @property
    def space(self) -> str:
        return "code" if self.section == "text" else "data"


@dataclass(frozen=True)
class LineInfo:
    """The instruction at code address `pc` came from `file:line`."""

    pc: int
    file: str
    line: int


@dataclass(frozen=True)
class MemoryRegion:
    name: str
    type: str
    start: int
    end: int                        # inclusive, as in the prior format


@dataclass(frozen=True)
class GlobalVariable:
    """A C global of a -g build: `type` indexes `SymbolTable.types`."""

    name: str
    address: int
    type: int | None
    file: str | None = None
    line: int | None = None
    symbol: str | None = None       # the linked label, when it differs from `name`
    static: bool = False


@dataclass(frozen=True)
class LocalVariable:
    """A local (or parameter) of a -g build, valid for code addresses low_pc <= pc < high_pc.

    `location` is {"kind": "frame", "offset": n} (the variable is at R14 + n; n < 0) or
    {"kind": "register", "reg": n}."""

    function: str
    name: str
    type: int | None
    location: dict
    low_pc: int = 0
    high_pc: int = 0
    file: str | None = None
    line: int | None = None
    arg: int | None = None          # 1-based parameter number, for parameters


@dataclass
class SymbolTable:
    functions: list[Symbol] = field(default_factory=list)
    variables: list[Symbol] = field(default_factory=list)
    lines: list[LineInfo] = field(default_factory=list)
    regions: list[MemoryRegion] = field(default_factory=list)
    hxe_crc: int = 0
    # -g builds: C type descriptions (a type reference is an index into `types`), each a
    # dict with "kind" (base, pointer, typedef, const, volatile, struct, union, array,
    # enum, function), "size" in bytes and, by kind: "name", "encoding", "pointee",
    # "type" (typedef/qualifier target), "fields" [{name, type, offset[, bit_offset,
    # bit_size]}], "element"/"count", "enumerators" [{name, value}].
    types: list[dict] = field(default_factory=list)
    globals: list[GlobalVariable] = field(default_factory=list)
    locals: list[LocalVariable] = field(default_factory=list)
    sources: dict[str, str] = field(default_factory=dict)   # file name -> absolute path

    def __post_init__(self) -> None:
        self.functions.sort(key=_order)
        self.variables.sort(key=_order)
        self.lines.sort(key=lambda e: e.pc)
        self._starts = {"code": [s.address for s in self.functions],
                        "data": [s.address for s in self.variables]}
        self._line_pcs = [e.pc for e in self.lines]
        self._bodies = {s.address: s.body for s in self.functions if s.body is not None}
        self._by_name: dict[str, Symbol] = {}
        for symbol in self.functions + self.variables:
            previous = self._by_name.get(symbol.name)
            if previous is None or (previous.scope != "global" and symbol.scope == "global"):
                self._by_name[symbol.name] = symbol

    # -- lookups ------------------------------------------------------------------------

    def symbol(self, name: str) -> Symbol | None:
        """The symbol called `name` (an exported one wins over same-named locals)."""
        return self._by_name.get(name)

    def address_of(self, name: str) -> int | None:
        symbol = self._by_name.get(name)
        return symbol.address if symbol else None

    def symbol_at(self, address: int, space: str = "code") -> Symbol | None:
        """The symbol whose extent holds `address` (or that starts exactly there)."""
        starts = self._starts[space]
        i = bisect.bisect_right(starts, address)
        if i == 0:
            return None
        symbols = self.functions if space == "code" else self.variables
        group = symbols[bisect.bisect_left(starts, starts[i - 1]):i]
        holders = [s for s in group if s.address == address or address < s.address + s.size]
        return min(holders, key=_order) if holders else None

    def lookup_address(self, address: int, space: str = "code") -> tuple[str, int] | None:
        """`(name, offset)` of the symbol holding `address` in the 'code' or 'data' space."""
        symbol = self.symbol_at(address, space)
        return (symbol.name, address - symbol.address) if symbol else None

    def labels_at(self, address: int, space: str = "code") -> list[str]:
        symbols = self.functions if space == "code" else self.variables
        lo = bisect.bisect_left(self._starts[space], address)
        hi = bisect.bisect_right(self._starts[space], address)
        return sorted(s.name for s in symbols[lo:hi])

    def body_of(self, address: int) -> int | None:
        """Where the body of the function starting at code `address` begins, past its
        prologue, when the compiler recorded it (C functions of a -g build)."""
        return self._bodies.get(address)

    def locals_at(self, pc: int) -> list[LocalVariable]:
        """The locals whose valid range holds code address `pc`."""
        return [v for v in self.locals if v.low_pc <= pc < v.high_pc]

    def global_variable(self, name: str) -> GlobalVariable | None:
        found = [g for g in self.globals if g.name == name]
        return min(found, key=lambda g: g.static) if found else None

    def line_for(self, pc: int) -> LineInfo | None:
        """Source line of the instruction at `pc` (exact; an LDI32 literal has none)."""
        i = bisect.bisect_left(self._line_pcs, pc)
        if i < len(self.lines) and self.lines[i].pc == pc:
            return self.lines[i]
        return None

    def pcs_for_line(self, file: str, line: int) -> list[int]:
        """Code addresses of the instructions from `file:line` (file matched by suffix)."""
        return [e.pc for e in self.lines
                if e.line == line and _same_file(e.file, file)]

    # -- serialisation ------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        labels: dict[str, list[str]] = {}
        for symbol in self.functions + self.variables:
            labels.setdefault(f"0x{symbol.address:08X}", []).append(symbol.name)
        doc = {
            "version": SYM_VERSION,
            "hxe_crc": self.hxe_crc,
            "symbols": {
                "functions": [_symbol_json(s) for s in self.functions],
                "variables": [_symbol_json(s) for s in self.variables],
                "labels": {key: sorted(set(names)) for key, names in labels.items()},
            },
            "instructions": [{"pc": e.pc, "file": e.file, "line": e.line} for e in self.lines],
            "memory_regions": [{"name": r.name, "type": r.type, "start": r.start, "end": r.end}
                               for r in self.regions],
        }
        if self.types or self.globals or self.locals:      # only -g builds have these
            doc["types"] = [dict(t) for t in self.types]
            doc["globals"] = [_plain(g) for g in self.globals]
            doc["locals"] = [_plain(v) for v in self.locals]
        if self.sources:
            doc["sources"] = dict(self.sources)
        return doc


def _plain(record) -> dict[str, Any]:
    return {k: (dict(v) if isinstance(v, dict) else v) for k, v in record.__dict__.items()}


def _order(symbol: Symbol) -> tuple:
    return (symbol.address, symbol.scope != "global", symbol.name)


def _same_file(stored: str, wanted: str) -> bool:
    stored, wanted = stored.replace("\\", "/"), wanted.replace("\\", "/")
    return stored == wanted or stored.endswith("/" + wanted) or wanted.endswith("/" + stored)


def _symbol_json(symbol: Symbol) -> dict[str, Any]:
    out = {"name": symbol.name, "address": symbol.address, "size": symbol.size,
           "section": symbol.section, "scope": symbol.scope, "file": symbol.file,
           "line": symbol.line}
    if symbol.body is not None:
        out["body"] = symbol.body
    if symbol.type is not None:
        out["type"] = symbol.type
    return out


def write_sym(table: SymbolTable) -> bytes:
    return (json.dumps(table.to_json(), indent=2, sort_keys=True) + "\n").encode("utf-8")


def load_sym(path: str | Path) -> SymbolTable:
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise SymbolFileError(f"{path}: cannot read: {exc.strerror or exc}") from None
    return read_sym(data, name=str(path))


def read_sym(data: bytes | str, name: str = "<sym>") -> SymbolTable:
    """Parse a `.sym` written by this linker or the prior one (extra keys are ignored)."""
    try:
        doc = json.loads(data)
        symbols = doc.get("symbols") or {}
        return SymbolTable(
            functions=list(_symbols(symbols.get("functions"), "text")),
            variables=list(_symbols(symbols.get("variables"), "data")),
            lines=[LineInfo(int(e["pc"]), str(e.get("file") or ""), int(e["line"]))
                   for e in doc.get("instructions") or [] if e.get("line") is not None],
            regions=[MemoryRegion(r["name"], r.get("type", ""), int(r["start"]), int(r["end"]))
                     for r in doc.get("memory_regions") or []],
            hxe_crc=int(doc.get("hxe_crc") or 0),
            types=[dict(t) for t in doc.get("types") or []],
            globals=[GlobalVariable(
                name=str(g["name"]), address=int(g["address"]), type=_ref(g.get("type")),
                file=g.get("file"), line=g.get("line"), symbol=g.get("symbol"),
                static=bool(g.get("static"))) for g in doc.get("globals") or []],
            locals=[LocalVariable(
                function=str(v["function"]), name=str(v["name"]), type=_ref(v.get("type")),
                location=dict(v["location"]), low_pc=int(v.get("low_pc") or 0),
                high_pc=int(v.get("high_pc") or 0), file=v.get("file"), line=v.get("line"),
                arg=v.get("arg")) for v in doc.get("locals") or []],
            sources={str(k): str(v) for k, v in (doc.get("sources") or {}).items()})
    except (json.JSONDecodeError, UnicodeDecodeError, AttributeError, KeyError, TypeError,
            ValueError) as exc:
        raise SymbolFileError(f"{name}: not a valid symbol file ({exc})") from None


def _ref(value) -> int | None:
    return None if value is None else int(value)


def _symbols(entries: Iterable[dict] | None, section: str) -> Iterable[Symbol]:
    for e in entries or []:
        yield Symbol(name=str(e["name"]), address=int(e["address"]), size=int(e.get("size") or 0),
                     section=e.get("section", section), scope=e.get("scope") or "local",
                     file=e.get("file"), line=e.get("line"),
                     body=_ref(e.get("body")), type=_ref(e.get("type")))
