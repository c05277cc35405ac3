"""The source files of a task's build, read on the executive's side: for a front end on
another machine, where the files the symbols name are not (`source.read`).

Only a file the task's symbols name can be read, only a source file by its suffix (a
`.sym` is data a client can write: one naming `/etc/shadow` must not make the executive
read it), and only a regular file of at most `MAX_SOURCE` bytes. It is looked for where
`hsx cc` recorded it (the `.sym`'s `sources` map), as named when that is absolute, then
beside the `.sym` and beside the program.
"""
from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any

from hsx.image.sym import SymbolTable

from . import errors as E
from .errors import DebugError, quoted
from .symbols import TaskSymbols, same_file

MAX_SOURCE = 4 << 20
SOURCE_SUFFIXES = frozenset({".c", ".h", ".mvasm", ".s", ".asm", ".inc", ".i"})


def named_files(table: SymbolTable) -> set[str]:
    """Every source file name the symbols use: line table, symbols, the sources map."""
    names = {entry.file for entry in table.lines if entry.file}
    names.update(s.file for s in table.functions + table.variables if s.file)
    names.update(table.sources)
    return names


def read_source(entry: TaskSymbols, file: str) -> dict[str, Any]:
    task, table = entry.task, entry.table
    if table is None:
        raise DebugError(E.NO_SYMBOLS, f"no symbols loaded for {task.app_name} "
                         f"(pid {task.pid}): they name its source files")
    name = next((n for n in sorted(named_files(table)) if same_file(n, file)), None)
    if name is None:
        raise DebugError(E.NO_SOURCE, f"{quoted(file)} is not a source file of "
                         f"{task.app_name} (its symbols do not name it)")
    if Path(name).suffix.lower() not in SOURCE_SUFFIXES:
        raise DebugError(E.NO_SOURCE, f"{name} is not read: only source files "
                         f"({', '.join(sorted(SOURCE_SUFFIXES))}) are")
    for path in _candidates(entry, name):
        if Path(os.path.realpath(path)).suffix.lower() not in SOURCE_SUFFIXES:
            continue                  # the map (or a link) may name another file: not read
        text = _read(path)
        if text is not None:
            return {"pid": task.pid, "file": name, "path": str(path), "text": text}
    raise DebugError(E.NO_SOURCE, f"{name} is not on the executive's machine (looked where "
                     "it was built, beside the symbols and beside the program)")


def _candidates(entry: TaskSymbols, name: str) -> list[Path]:
    built = entry.table.sources.get(name)
    out = [Path(built)] if built else []
    relative = Path(name)
    if relative.is_absolute():
        return out + [relative]
    for beside in (entry.path, entry.task.source):
        if beside:
            out.append(Path(beside).parent / relative)
    return out


def _read(path: Path) -> str | None:
    """The file's text if it is a regular file of at most MAX_SOURCE bytes."""
    try:                       # O_NONBLOCK: a FIFO put where a source was must not hang us
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return None
    with os.fdopen(fd, "rb") as f:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_SOURCE:
            return None
        return f.read(MAX_SOURCE).decode("utf-8", errors="replace")
