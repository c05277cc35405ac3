"""Memory dumps, registers and disassembly."""
from __future__ import annotations

import string
from typing import Any

from .text import Context, Line, hexaddr, line, s, where

PRINTABLE = set(string.printable) - set("\t\n\r\x0b\x0c")
FLAGS = (("Z", 0), ("C", 1), ("N", 2), ("V", 3))


def memory(data: dict[str, Any], ctx: Context) -> list[Line]:
    """peek/x: a hex + ASCII dump, or units in a format (x/4dw), with the data symbols
    that start in each row named at its end."""
    raw = bytes.fromhex(data["data"])
    addr, unit, fmt = data["addr"], data.get("unit", 1), data.get("format", "x")
    symbols = data.get("symbols", [])
    head = [s("dim", f"pid {data['pid']}  {data.get('length', len(raw))} bytes at "),
            s("addr", hexaddr(addr)), s("dim", f" ({data['location']})")
            if isinstance(data.get("location"), str) else ("", "")]
    out = [line(*head)]
    if fmt == "s":
        text = raw.split(b"\0", 1)[0].decode("utf-8", errors="replace")
        return out + [line(s("addr", hexaddr(addr)), "  ", s("str", repr(text)))]
    per_row = 16
    digits = 8 if addr + len(raw) > 0xFFFF else 4
    for offset in range(0, len(raw), per_row):
        row = raw[offset:offset + per_row]
        start = addr + offset
        parts: Line = [s("addr", f"0x{start:0{digits}X}"), ("", "  ")]
        if unit == 1 and fmt == "x":
            parts += _hex_ascii(row, per_row)
        else:
            parts += _units(row, unit, fmt)
        labels = _labels(symbols, start, start + len(row), first=offset == 0)
        if labels:
            parts += [("", "  "), s("label", labels)]
        out.append(parts)
    return out


def _hex_ascii(row: bytes, per_row: int) -> Line:
    cells = [f"{b:02x}" for b in row] + ["  "] * (per_row - len(row))
    left, right = " ".join(cells[:8]), " ".join(cells[8:])
    ascii_ = "".join(chr(b) if chr(b) in PRINTABLE and b < 0x7F else "." for b in row)
    return [("", f"{left}  {right}"), ("", "  "), s("str", f"|{ascii_.ljust(per_row)}|")]


def _units(row: bytes, unit: int, fmt: str) -> Line:
    parts: Line = []
    for i in range(0, len(row) - unit + 1, unit):
        value = int.from_bytes(row[i:i + unit], "little")
        parts += [("", "  " if i else ""), s("num", _unit_text(value, unit, fmt))]
    return parts


def _unit_text(value: int, unit: int, fmt: str) -> str:
    bits = unit * 8
    if fmt == "d":
        return str(value - (1 << bits) if value >> (bits - 1) else value).rjust(bits // 3 + 1)
    if fmt == "u":
        return str(value).rjust(bits // 3 + 1)
    if fmt == "o":
        return f"0{value:o}"
    if fmt == "t":
        return f"{value:0{bits}b}"
    if fmt == "c":
        return repr(chr(value)) if value < 0x80 else f"\\x{value:02x}"
    return f"0x{value:0{unit * 2}x}"


def _labels(symbols: list[dict[str, Any]], start: int, end: int, first: bool) -> str:
    names = []
    for symbol in symbols:
        at = symbol["address"]
        if start <= at < end:
            names.append(symbol["name"] if at == start else f"{symbol['name']}@+{at - start}")
        elif first and at < start < at + symbol["size"]:
            names.append(f"{symbol['name']}+{start - at}")
    return "<" + ", ".join(names) + ">" if names else ""


def registers(data: dict[str, Any], ctx: Context) -> list[Line]:
    regs = data["registers"]
    values = regs["regs"]
    out = []
    for row in range(4):
        parts: Line = []
        for col in range(4):
            index = row * 4 + col
            parts += [("", "   " if col else ""), s("key", f"R{index:<2} "),
                      s("num", f"{values[index]:08X}")]
        out.append(parts)
    psw = regs["psw"]
    flags: Line = []
    for name, bit in FLAGS:
        on = psw >> bit & 1
        flags += [("", " "), s("ok" if on else "dim", name if on else name.lower())]
    pc = [s("key", "PC "), s("addr", hexaddr(regs["pc"]))]
    symbol = data.get("pc_symbol") or {}
    if symbol.get("symbol"):
        pc += [("", " "), *where(symbol["symbol"], symbol.get("offset"), symbol.get("file"),
                                 symbol.get("line"))]
    out.append(line(*pc, "   ", s("key", "SP "), s("addr", hexaddr(regs["sp"])), "   ",
                    s("key", "FP "), s("addr", hexaddr(values[14])), "   ",
                    s("key", "PSW "), s("num", f"0x{psw:02X}"), " [", *flags, " ]"))
    out.append(line(s("dim", f"pid {regs['pid']}  {regs['state']}  {regs['steps']} "
                             f"instructions  stack {hexaddr(regs['stack_base'])}.."
                             f"{hexaddr(regs['stack_top'])}")))
    return out


def disasm(data: dict[str, Any], ctx: Context) -> list[Line]:
    listing = data["disasm"]
    pid = listing["pid"]
    out: list[Line] = []
    seen: tuple | None = None
    for ins in listing["instructions"]:
        for label in ins.get("labels", []):
            out.append(line(s("label", f"{label}:")))
        source = (ins.get("file"), ins.get("line"))
        text = ctx.source_line(pid, *source)
        if text is not None and source != seen and not ins["file"].endswith(".mvasm"):
            out.append(line(s("src", f"      {ins['line']:>5}  {text.strip()}")))
        seen = source
        mark = "=>" if ins.get("current") else " *" if ins.get("breakpoints") else "  "
        note = []
        for key in ("target_symbol", "data_symbol"):
            if ins.get(key):
                note.append(ins[key])
        offset = ins.get("offset")
        place = f"<{ins['symbol']}+{offset}>" if ins.get("symbol") else ""
        style = "pc" if ins.get("current") else ""
        out.append(line(s("bp" if mark == " *" else style, mark), " ",
                        s("addr", hexaddr(ins["pc"])), " ", s("dim", place.ljust(14)), " ",
                        s(style or "mnemonic", ins["text"]),
                        s("dim", f"    ; {', '.join(note)}") if note else ""))
    for warning in listing.get("warnings", []):
        out.append(line(s("warn", warning)))
    return out
