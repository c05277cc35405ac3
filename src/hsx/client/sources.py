"""Source lines for a front end, found from what the symbols say.

A `.sym` names files relative to where they were built (`prog.c`, `lib/src/printf.c`),
or absolute when they were outside that directory.  They are looked for as given
(absolute), through the `.sym`'s own `sources` map (name to absolute path, written by
`hsx cc`), beside the symbol file, beside the program, and in the current directory.
The executive may run on another machine: a file that is not here is simply not shown.
"""
from __future__ import annotations

import json
from pathlib import Path


class SourceFinder:
    def __init__(self) -> None:
        self._lines: dict[Path, list[str] | None] = {}
        self._sources: dict[str, dict[str, str]] = {}

    def line(self, file: str, number: int, program: str | None = None,
             symbols: str | None = None) -> str | None:
        """Line `number` (1-based) of `file`, without its newline, or None."""
        lines = self.lines(file, program, symbols)
        if lines is None or not 1 <= number <= len(lines):
            return None
        return lines[number - 1]

    def lines(self, file: str, program: str | None = None,
              symbols: str | None = None) -> list[str] | None:
        path = self.find(file, program, symbols)
        if path is None:
            return None
        if path not in self._lines:
            try:
                text = path.read_text(encoding="utf-8", errors="replace")
                self._lines[path] = text.expandtabs(4).splitlines()
            except OSError:
                self._lines[path] = None
        return self._lines[path]

    def find(self, file: str, program: str | None = None,
             symbols: str | None = None) -> Path | None:
        name = Path(file)
        if name.is_absolute():
            return name if name.is_file() else None
        dirs = [Path(p).parent for p in (symbols, program) if p] + [Path.cwd()]
        built = self.built_at(symbols).get(file)
        candidates = ([Path(built)] if built else []) + [d / name for d in dirs]
        return next((c for c in candidates if c.is_file()), None)

    def built_at(self, symbols: str | None) -> dict[str, str]:
        """The `sources` map of the `.sym` at `symbols` ({} when it has none)."""
        if not symbols:
            return {}
        if symbols not in self._sources:
            self._sources[symbols] = sources_of(symbols)
        return self._sources[symbols]


def same_file(a: str, b: str) -> bool:
    """Do two names of a source file mean the same file: equal, or one ends with the
    other at a path separator (`prog.c`, `src/prog.c`), as the executive matches them."""
    a, b = a.replace("\\", "/"), b.replace("\\", "/")
    return a == b or a.endswith("/" + b) or b.endswith("/" + a)


def sources_of(symbols: str | Path) -> dict[str, str]:
    """The `sources` map of a `.sym` file: file name -> absolute path ({} if none)."""
    try:
        doc = json.loads(Path(symbols).read_text(encoding="utf-8"))
        found = doc.get("sources") or {}
        return {str(k): str(v) for k, v in found.items()}
    except (OSError, ValueError, TypeError, AttributeError):
        return {}

