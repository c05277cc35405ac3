"""Styled text without a UI: lines of (style, text) fragments.

A style is a prompt_toolkit-style class name (`class:addr`); a front end maps the
classes to colours (the shell through a prompt_toolkit `Style`, a Textual app through
Rich styles) or drops them (`plain`).  The classes: head, dim, addr, sym, num, str, key,
ok, warn, err, pc, bp, changed, label, src, file, mnemonic, pid, state.<state>.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Union

Fragment = tuple[str, str]
Line = list[Fragment]
Cell = Union[str, Fragment, list]


def s(style: str, text: Any) -> Fragment:
    """One fragment in a style class (`s("addr", "0x0010")`)."""
    return (f"class:{style}" if style else "", str(text))


def line(*parts: Cell) -> Line:
    out: Line = []
    for part in parts:
        if isinstance(part, str):
            out.append(("", part))
        elif isinstance(part, tuple):
            out.append(part)
        else:
            out.extend(part)
    return out


def width(cell: Cell) -> int:
    if isinstance(cell, str):
        return len(cell)
    if isinstance(cell, tuple):
        return len(cell[1])
    return sum(len(text) for _, text in cell)


def plain(lines: Iterable[Line]) -> str:
    return "\n".join("".join(text for _, text in ln) for ln in lines)


def table(header: list[str], rows: list[list[Cell]],
          right: Iterable[str] = ()) -> list[Line]:
    """Columns padded to their widest cell; the columns named in `right` are
    right-aligned (numbers)."""
    if not rows:
        return [line(s("dim", "(none)"))]
    right = set(right)
    widths = [max(len(h), *(width(r[i]) for r in rows)) for i, h in enumerate(header)]

    def row_line(cells: list[Cell]) -> Line:
        out: Line = []
        for index, (cell, w) in enumerate(zip(cells, widths)):
            gap = " " * (w - width(cell))
            if index:
                out.append(("", "  "))
            if header[index] in right:
                out += [("", gap), *line(cell)]
            else:
                out += [*line(cell), ("", "" if index == len(cells) - 1 else gap)]
        return out
    return [row_line([s("head", h) for h in header])] + [row_line(r) for r in rows]


def hexaddr(value: Any, digits: int = 4) -> str:
    return f"0x{value:0{digits}X}" if isinstance(value, int) else "-"


def where(symbol: str | None, offset: int | None, file: str | None = None,
          line_no: int | None = None) -> Line:
    """`main+0x8 prog.c:12` from a reply's symbol/offset/file/line (what is known)."""
    out: Line = []
    if symbol:
        out.append(s("sym", f"{symbol}+0x{offset:X}" if offset else symbol))
    if file and line_no:
        out += [("", " " if out else ""), s("file", f"{Path(file).name}:{line_no}")]
    return out


def generic(data: Any) -> list[Line]:
    """Any reply, readable: one `key: value` per line, nested values as compact JSON."""
    if not isinstance(data, dict):
        return [line(json.dumps(data))]
    out = []
    for key, value in data.items():
        if key in ("version", "status", "id"):
            continue
        text = value if isinstance(value, str) else json.dumps(value)
        out.append(line(s("key", f"{key}: "), text))
    return out or [line(s("ok", "ok"))]


def as_json(data: Any) -> list[Line]:
    """A reply without its envelope, as indented JSON (for any protocol command)."""
    if isinstance(data, dict):
        data = {k: v for k, v in data.items() if k not in ("version", "status", "id")}
    return [line(text) for text in json.dumps(data, indent=2).splitlines()]


@dataclass
class Context:
    """What the renderers know beyond a reply: app names, programs and symbol files by
    PID (for source lines), and a source finder."""
    names: dict[int, str] = field(default_factory=dict)
    programs: dict[int, str] = field(default_factory=dict)
    symbol_files: dict[int, str] = field(default_factory=dict)
    sources: Any = None          # a SourceFinder, or None for no source lines

    def source_line(self, pid: int | None, file: str | None, number: int | None) -> str | None:
        if self.sources is None or not file or not number:
            return None
        return self.sources.line(file, number, self.programs.get(pid),
                                 self.symbol_files.get(pid))

    def task(self, pid: Any) -> str:
        name = self.names.get(pid) if isinstance(pid, int) else None
        return f"{pid} {name}" if name else str(pid)
