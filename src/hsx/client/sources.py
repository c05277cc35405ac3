"""Source lines for a front end, found from what the symbols say.

A `.sym` names files as the compiler saw them (often relative: `prog.c`).  They are
looked for as given (absolute), through the `sources.json` that `hsx cc -g` writes,
beside the symbol file, beside the program, and in the current directory.  The
executive may run on another machine: a file that is not here is simply not shown.
"""
from __future__ import annotations

import json
from pathlib import Path


class SourceFinder:
    def __init__(self) -> None:
        self._lines: dict[Path, list[str] | None] = {}

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
        candidates = [mapped for d in dirs if (mapped := _mapped(d, file)) is not None]
        candidates += [d / name for d in dirs]
        return next((c for c in candidates if c.is_file()), None)


def _mapped(directory: Path, file: str) -> Path | None:
    """What `sources.json` in `directory` says `file` is."""
    try:
        doc = json.loads((directory / "sources.json").read_text(encoding="utf-8"))
        for entry in doc.get("sources", []):
            if isinstance(entry, dict) and entry.get("file") == file and "path" in entry:
                return Path(entry["path"])
    except (OSError, ValueError, TypeError, AttributeError):
        pass
    return None
