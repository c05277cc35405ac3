"""Turn an image back into text: a symbolised listing, or MVASM that reassembles.

Only the code section is decoded (never data memory).  Labels come from a symbol
table when there is one; every branch target without a name gets a synthesized
`L_xxxx` label.  A word is printed as an instruction only if re-encoding that
instruction gives the same bits, otherwise as `.word`, so `--mvasm` output assembles
to identical code, rodata, entry and metadata.  A compact pair is listed as its two
operations joined by " | " (hsx.isa.text); in `--mvasm` output it is a `.word` with
that text as a comment, the form the assembler reads back to the same word.
"""
from __future__ import annotations

from dataclasses import dataclass

from hsx.image.model import RODATA_BASE, HxeImage
from hsx.image.sym import SymbolTable
from hsx.isa.compact import Pair, pack
from hsx.isa.encoding import Instruction, decode_code, encode
from hsx.isa.opcodes import Form
from hsx.isa.text import format_instruction

from . import metadata
from .parser import register_number

_IDENT_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.$")
_BYTES_PER_LINE = 16


@dataclass(frozen=True)
class _Item:
    """One instruction (or undecodable word) of the code section."""

    pc: int
    words: tuple[int, ...]
    ins: Instruction | Pair | None


def _decode(image: HxeImage) -> list[_Item]:
    words = image.code_words
    items, i = [], 0
    while i < len(words):
        ins = decode_code(words, i)
        size = ins.size // 4 if ins else 1
        chunk = tuple(words[i:i + size])
        if ins is None or len(chunk) < size or _encoded(ins) != chunk:
            items.append(_Item(4 * i, (words[i],), None))
            i += 1
        else:
            items.append(_Item(4 * i, chunk, ins))
            i += size
    return items


def _encoded(ins: Instruction | Pair) -> tuple[int, ...]:
    return (pack(ins.first, ins.second),) if isinstance(ins, Pair) else tuple(encode(ins))


class _Labels:
    """Names for code and data addresses, valid and unique as MVASM labels."""

    def __init__(self, image: HxeImage, items: list[_Item], symbols: SymbolTable | None) -> None:
        self.code: dict[int, list[str]] = {}
        self.data: dict[int, list[str]] = {}
        self._used: set[str] = set()
        if symbols is not None:
            for symbol in symbols.functions:
                self._add(self.code, symbol.address, symbol.name)
            for symbol in symbols.variables:
                self._add(self.data, symbol.address, symbol.name)
        starts = {item.pc for item in items}
        targets = [item.ins.branch_target(item.pc) for item in items if item.ins]
        targets += [image.entry] + [c.handler_offset for c in image.metadata.commands]
        for target in sorted({t for t in targets if t in starts}):
            if target not in self.code:
                self._add(self.code, target, f"L_{target:04X}")

    def _add(self, table: dict[int, list[str]], address: int, name: str) -> None:
        if not name or not all(c in _IDENT_CHARS for c in name) or name[0].isdigit() \
                or register_number(name) is not None or name in self._used:
            name = f"{_clean(name)}_{address:04X}"
        if name in self._used:
            return
        self._used.add(name)
        table.setdefault(address, []).append(name)

    def code_name(self, address: int) -> str | None:
        names = self.code.get(address)
        return names[0] if names else None


def _clean(name: str) -> str:
    cleaned = "".join(c if c in _IDENT_CHARS else "_" for c in name) or "L"
    return "L" + cleaned if cleaned[0].isdigit() or register_number(cleaned) else cleaned


# -- listing ---------------------------------------------------------------------------

def listing(image: HxeImage, symbols: SymbolTable | None = None, title: str = "") -> str:
    """Human-readable listing: address, word(s), instruction, labels, targets, lines."""
    items = _decode(image)
    labels = _Labels(image, items, symbols)
    out = [_header(image, title)]
    if symbols is not None and symbols.hxe_crc and image.crc and symbols.hxe_crc != image.crc:
        out.append(f"; warning: the symbol file was written for another image "
                   f"(crc 0x{symbols.hxe_crc:08X}, image 0x{image.crc:08X})")
    out.append("")
    for item in items:
        for name in labels.code.get(item.pc, []):
            out.append(f"{name}:")
        words = " ".join(f"{w:08X}" for w in item.words)
        text = _instruction_text(item, labels)
        notes = _notes(item, labels, symbols)
        line = f"  {item.pc:04X}:  {words:<17}  {text}"
        out.append(f"{line:<59} ; {notes}" if notes else line)   # (a space: long pair lines)
    end = len(image.code)
    for name in labels.code.get(end, []):
        out.append(f"{name}:  ; end of code")
    out.extend(_data_listing(image, labels))
    out.extend("; " + line for line in _metadata_lines(image, labels))
    return "\n".join(out) + "\n"


def _header(image: HxeImage, title: str) -> str:
    parts = [f"; {title}" if title else ";", f"HXE v{image.version}"]
    if image.app_name:
        parts.append(f'app "{image.app_name}"')
    parts += [f"flags 0x{image.flags:04X}", f"entry 0x{image.entry:04X}",
              f"code {len(image.code)} bytes", f"rodata {len(image.rodata)} bytes",
              f"bss {image.bss_size} bytes"]
    if image.req_caps:
        parts.append(f"req_caps 0x{image.req_caps:X}")
    if image.stack_size:
        parts.append(f"stack {image.stack_size} bytes")
    if image.mem_size:
        parts.append(f"memory {image.mem_size} bytes")
    return "  ".join(parts)


def _instruction_text(item: _Item, labels: _Labels) -> str:
    if item.ins is None:
        return f".word 0x{item.words[0]:08X}"
    return format_instruction(item.ins, item.pc, labels.code_name)


def _notes(item: _Item, labels: _Labels, symbols: SymbolTable | None) -> str:
    notes = []
    ins = item.ins
    if ins is None:
        notes.append("illegal instruction")
    else:
        target = ins.branch_target(item.pc)
        if target is not None and labels.code_name(target):
            notes.append(f"-> 0x{target:04X}")
        if isinstance(ins, Instruction) and ins.op.form in (Form.RD_IMM32, Form.RD_IMM20) \
                and symbols is not None:
            found = symbols.lookup_address(ins.imm, "data")
            if found:
                notes.append(found[0] + (f"+{found[1]}" if found[1] else ""))
    if symbols is not None:
        line = symbols.line_for(item.pc)
        if line is not None:
            notes.append(f"{line.file}:{line.line}")
    return "  ".join(notes)


def _data_listing(image: HxeImage, labels: _Labels) -> list[str]:
    out: list[str] = []
    if image.rodata:
        out += ["", f"; .data at 0x{RODATA_BASE:04X}, {len(image.rodata)} bytes"]
        for start, end in _runs(labels.data, RODATA_BASE, RODATA_BASE + len(image.rodata)):
            for name in labels.data.get(start, []):
                out.append(f"{name}:")
            for row in range(start, end, _BYTES_PER_LINE):
                chunk = image.rodata[row - RODATA_BASE:min(end, row + _BYTES_PER_LINE)
                                     - RODATA_BASE]
                text = "".join(chr(b) if 0x20 <= b < 0x7F else "." for b in chunk)
                out.append(f"  {row:04X}:  {chunk.hex(' ').upper():<48}  {text}")
        out.extend(f"{name}:  ; end of .data" for name in _end_of_data_labels(image, labels))
    if image.bss_size:
        start = _bss_start(image)
        out += ["", f"; .bss at 0x{start:04X}, {image.bss_size} bytes"]
        for address in sorted(a for a in labels.data if start <= a <= start + image.bss_size):
            for name in labels.data[address]:
                out.append(f"{name}:  ; 0x{address:04X}")
    return out


def _runs(table: dict[int, list[str]], start: int, end: int) -> list[tuple[int, int]]:
    """Split [start, end) at the labelled addresses inside it."""
    cuts = sorted({start, end} | {a for a in table if start < a < end})
    return list(zip(cuts, cuts[1:]))


def _end_of_data_labels(image: HxeImage, labels: _Labels) -> list[str]:
    """Labels just past the rodata (unless they open the bss, which lists them)."""
    end = RODATA_BASE + len(image.rodata)
    if image.bss_size and end == _bss_start(image):
        return []
    return labels.data.get(end, [])


def _bss_start(image: HxeImage) -> int:
    return RODATA_BASE + -(-len(image.rodata) // 4) * 4


def _metadata_lines(image: HxeImage, labels: _Labels) -> list[str]:
    meta = image.metadata
    lines = [metadata.value_directive(v) for v in meta.values]
    lines += [metadata.command_directive(c, labels.code_name(c.handler_offset))
              for c in meta.commands]
    lines += [metadata.mailbox_directive(m) for m in meta.mailboxes]
    lines += [f"(metadata section of unknown type {kind}, {len(payload)} bytes, not shown)"
              for kind, payload in meta.unknown_sections]
    return lines


# -- MVASM -----------------------------------------------------------------------------

def to_mvasm(image: HxeImage, symbols: SymbolTable | None = None, title: str = "") -> str:
    """MVASM source that `hsx asm` turns back into the same code, rodata, bss size,
    entry and metadata (the app name and flags are link options, not source)."""
    items = _decode(image)
    labels = _Labels(image, items, symbols)
    out = [f"; disassembled from {title}" if title else "; disassembled by hsx disasm",
           "", ".text"]
    entry_name = labels.code_name(image.entry)
    out.append(f".entry {entry_name}" if entry_name else f".entry 0x{image.entry:04X}")
    for item in items:
        out.extend(f"{name}:" for name in labels.code.get(item.pc, []))
        text = _instruction_text(item, labels)
        if isinstance(item.ins, Pair):
            text = f".word 0x{item.words[0]:08X}  ; {text}"
        out.append("    " + text)
    out.extend(f"{name}:" for name in labels.code.get(len(image.code), []))
    if image.rodata:
        out += ["", ".data"]
        end = RODATA_BASE + len(image.rodata)
        for start, stop in _runs(labels.data, RODATA_BASE, end):
            out.extend(f"{name}:" for name in labels.data.get(start, []))
            chunk = image.rodata[start - RODATA_BASE:stop - RODATA_BASE]
            for row in range(0, len(chunk), _BYTES_PER_LINE):
                part = chunk[row:row + _BYTES_PER_LINE]
                out.append("    .byte " + ", ".join(f"0x{b:02X}" for b in part))
        out.extend(f"{name}:" for name in _end_of_data_labels(image, labels))
    if image.bss_size:
        out += ["", ".bss"]
        start = _bss_start(image)
        cursor = start
        for address in sorted(a for a in labels.data if start <= a <= start + image.bss_size):
            if address > cursor:
                out.append(f"    .zero {address - cursor}")
                cursor = address
            out.extend(f"{name}:" for name in labels.data[address])
        if start + image.bss_size > cursor:
            out.append(f"    .zero {start + image.bss_size - cursor}")
    meta_lines = _metadata_lines(image, labels)
    if meta_lines:
        out += [""] + [line if line.startswith(".") else "; " + line for line in meta_lines]
    return "\n".join(out) + "\n"
