"""`.hxo` object files: one assembled module, as JSON, waiting to be linked.

The schema is the prior one (version 1: `entry`, `entry_symbol`, `code`, `rodata` hex,
`externs`, `imports`, `relocs`, `symbols`, `local_symbols`, `metadata`) so objects
written by the prior assembler still link.  Additive fields, all optional on read:
`bss` (size), section `"bss"` in symbol entries, `entry_declared`, `data_align`,
`bss_align`, `files` + `lines` (code word index -> source line), per-label
`file`/`line`, per-relocation `addend` and `at` ("file:line:col" of the reference), and
`function_sections` (every reference between functions or data objects is a relocation,
so the linker can drop the ones nothing uses: hsx.toolchain.gc).
Written with sorted keys and no timestamps or absolute paths, so equal inputs give
equal bytes.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .model import RODATA_BASE

HXO_VERSION = 1
SECTIONS = ("text", "data", "bss")
METADATA_KINDS = ("values", "commands", "mailboxes")


class ObjectFileError(ValueError):
    """An `.hxo` that is not valid JSON or does not follow the schema."""


@dataclass(frozen=True)
class SymbolDef:
    """A label: byte `offset` inside this module's `section` ('text', 'data' or 'bss')."""

    section: str
    offset: int
    file: str | None = None
    line: int | None = None


@dataclass(frozen=True)
class Relocation:
    """A field the linker fills with `kind(address(symbol) + addend)`.

    `section` 'code' locates the field by word `index`; 'rodata' by byte offset.
    `pc_relative` (CALL) and type 'rel24' store a word offset from the instruction."""

    type: str
    section: str
    position: int
    symbol: str
    kind: str = "symbol"
    addend: int = 0
    pc_relative: bool = False
    at: str | None = None


@dataclass(frozen=True)
class LineEntry:
    """The instruction starting at code word `index` came from `files[file]:line`."""

    index: int
    file: int
    line: int


@dataclass
class ObjectModule:
    code: list[int] = field(default_factory=list)
    rodata: bytes = b""
    bss_size: int = 0
    entry: int = 0
    entry_symbol: str | None = None
    entry_declared: bool = False
    symbols: dict[str, SymbolDef] = field(default_factory=dict)     # every label
    exports: frozenset[str] = frozenset()
    externs: tuple[str, ...] = ()
    imports: tuple[str, ...] = ()
    relocs: list[Relocation] = field(default_factory=list)
    metadata: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    files: tuple[str, ...] = ()
    lines: list[LineEntry] = field(default_factory=list)
    data_align: int = 4
    bss_align: int = 4
    function_sections: bool = False   # atoms the linker may drop (hsx.toolchain.gc)
    name: str = "<object>"        # where the module came from, for messages; not stored
    source_dir: str = ""          # directory `files` and `at` are relative to; not stored

    def bss_offset(self) -> int:
        """Where this module's bss starts relative to its rodata when linked alone."""
        return _align(len(self.rodata), max(4, self.bss_align))

    def local_address(self, symbol: SymbolDef) -> int:
        if symbol.section == "text":
            return symbol.offset
        if symbol.section == "data":
            return RODATA_BASE + symbol.offset
        return RODATA_BASE + self.bss_offset() + symbol.offset


def _align(value: int, alignment: int) -> int:
    return -(-value // alignment) * alignment


# -- writing ----------------------------------------------------------------------------

def write_hxo(module: ObjectModule) -> bytes:
    return (json.dumps(hxo_to_json(module), indent=2, sort_keys=True) + "\n").encode("utf-8")


def hxo_to_json(module: ObjectModule) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "version": HXO_VERSION,
        "entry": module.entry,
        "entry_symbol": module.entry_symbol,
        "entry_declared": module.entry_declared,
        "code": list(module.code),
        "rodata": module.rodata.hex(),
        "bss": module.bss_size,
        "externs": sorted(module.externs),
        "imports": sorted(module.imports),
        "relocs": [_reloc_json(r) for r in module.relocs],
        "symbols": {name: {"section": module.symbols[name].section,
                           "offset": module.symbols[name].offset}
                    for name in sorted(module.exports)},
        "local_symbols": {name: _label_json(module, sym)
                          for name, sym in sorted(module.symbols.items())},
        "files": list(module.files),
        "lines": [[e.index, e.file, e.line] for e in module.lines],
    }
    if module.data_align != 4:
        doc["data_align"] = module.data_align
    if module.bss_align != 4:
        doc["bss_align"] = module.bss_align
    if module.function_sections:
        doc["function_sections"] = True
    if any(module.metadata.get(kind) for kind in METADATA_KINDS):
        doc["metadata"] = {kind: list(module.metadata.get(kind, [])) for kind in METADATA_KINDS}
    return doc


def _reloc_json(reloc: Relocation) -> dict[str, Any]:
    doc: dict[str, Any] = {"type": reloc.type, "section": reloc.section, "symbol": reloc.symbol,
                           "kind": reloc.kind,
                           ("index" if reloc.section == "code" else "offset"): reloc.position}
    if reloc.pc_relative:
        doc["pc_relative"] = True
    if reloc.addend:
        doc["addend"] = reloc.addend
    if reloc.at:
        doc["at"] = reloc.at
    return doc


def _label_json(module: ObjectModule, symbol: SymbolDef) -> dict[str, Any]:
    doc: dict[str, Any] = {"section": symbol.section, "offset": symbol.offset,
                           "abs_addr": module.local_address(symbol)}
    if symbol.file is not None:
        doc["file"] = symbol.file
        doc["line"] = symbol.line
    return doc


# -- reading ----------------------------------------------------------------------------

def load_hxo(path: str | Path) -> ObjectModule:
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise ObjectFileError(f"{path}: cannot read: {exc.strerror or exc}") from None
    return read_hxo(data, name=str(path))


def read_hxo(data: bytes | str, name: str = "<object>") -> ObjectModule:
    """Parse and validate an object; errors name the file and the offending field."""
    try:
        doc = json.loads(data)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ObjectFileError(f"{name}: not a JSON object file ({exc})") from None
    try:
        return _from_json(doc, name)
    except (KeyError, TypeError, ValueError) as exc:
        if isinstance(exc, ObjectFileError):
            raise
        raise ObjectFileError(f"{name}: malformed object file ({exc!r})") from None


def _from_json(doc: Any, name: str) -> ObjectModule:
    def fail(message: str) -> ObjectFileError:
        return ObjectFileError(f"{name}: {message}")

    if not isinstance(doc, dict):
        raise fail("not a JSON object")
    if doc.get("version", HXO_VERSION) != HXO_VERSION:
        raise fail(f"unsupported object version {doc.get('version')!r}")
    code = doc.get("code", [])
    if not isinstance(code, list) or not all(_is_int(w) and 0 <= w <= 0xFFFFFFFF for w in code):
        raise fail("'code' must be a list of 32-bit unsigned integers")
    try:
        rodata = bytes.fromhex(doc.get("rodata") or "")
    except ValueError:
        raise fail("'rodata' is not a hex string") from None
    symbols = {n: _symbol(s, fail) for n, s in (doc.get("local_symbols") or {}).items()}
    exported = doc.get("symbols") or {}
    for label, entry in exported.items():
        symbols.setdefault(label, _symbol(entry, fail))
    relocs = [_reloc(r, fail) for r in doc.get("relocs") or []]
    metadata = doc.get("metadata") or {}
    if not isinstance(metadata, dict) or not all(
            isinstance(metadata.get(k) or [], list)
            and all(isinstance(r, dict) for r in metadata.get(k) or []) for k in METADATA_KINDS):
        raise fail("'metadata' must map values/commands/mailboxes to lists of objects")
    entry_symbol = doc.get("entry_symbol")
    entry = doc.get("entry") or 0
    if not _is_int(entry) or not (entry_symbol is None or isinstance(entry_symbol, str)):
        raise fail("'entry' must be an integer and 'entry_symbol' a name or null")
    files = tuple(doc.get("files") or ())
    lines = [LineEntry(*item) for item in doc.get("lines") or []]
    if any(not 0 <= e.file < len(files) for e in lines):
        raise fail("'lines' refers to a file index not in 'files'")
    return ObjectModule(
        code=list(code), rodata=rodata, bss_size=int(doc.get("bss") or 0), entry=entry,
        entry_symbol=entry_symbol,
        entry_declared=bool(doc.get("entry_declared", entry_symbol is not None or entry != 0)),
        symbols=symbols, exports=frozenset(exported),
        externs=tuple(doc.get("externs") or ()), imports=tuple(doc.get("imports") or ()),
        relocs=relocs,
        metadata={k: list(metadata.get(k) or []) for k in METADATA_KINDS},
        files=files, lines=lines, data_align=int(doc.get("data_align", 4)),
        bss_align=int(doc.get("bss_align", 4)),
        function_sections=bool(doc.get("function_sections", False)), name=name)


def _symbol(entry: Any, fail) -> SymbolDef:
    section = entry.get("section")
    if section not in SECTIONS or not _is_int(entry.get("offset")):
        raise fail(f"bad symbol entry {entry!r}")
    return SymbolDef(section, entry["offset"], entry.get("file"), entry.get("line"))


def _reloc(entry: Any, fail) -> Relocation:
    section = entry.get("section", "code")
    key = "index" if section == "code" else "offset"
    if section not in ("code", "rodata") or not _is_int(entry.get(key)) \
            or not isinstance(entry.get("symbol"), str):
        raise fail(f"bad relocation {entry!r}")
    return Relocation(type=entry["type"], section=section, position=entry[key],
                      symbol=entry["symbol"], kind=entry.get("kind", "symbol"),
                      addend=int(entry.get("addend", 0)),
                      pc_relative=bool(entry.get("pc_relative", False)), at=entry.get("at"))


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
