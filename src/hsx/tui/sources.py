"""Source files for the source panel: finding them from what the symbols say, and
highlighting them once.

A `.sym` names files as the compiler saw them (often relative: `prog.c`).  They are
looked for, in order: as given (absolute), next to the symbol file, through the
`sources.json` that `hsx cc -g` writes beside it, next to the program, and in the
current directory.  The debugger usually runs on the executive's machine; when it does
not, the file may not be here and the panel says so (disassembly still works).
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from rich.syntax import Syntax
from rich.text import Text

LEXERS = {".c": "c", ".h": "c", ".mvasm": "nasm", ".s": "nasm", ".asm": "nasm"}
THEME = "monokai"


@dataclass(frozen=True)
class SourceFile:
    name: str                   # as the symbols name it
    path: Path
    lines: tuple[Text, ...]


class SourceCache:
    def __init__(self) -> None:
        self.search_dirs: list[Path] = []
        self._mapped: dict[str, Path] = {}
        self._files: dict[str, SourceFile | None] = {}

    def set_context(self, symbols_path: str | None, program: str | None) -> None:
        """Where to look: beside the task's symbol file and program."""
        dirs = []
        for path in (symbols_path, program):
            if path:
                dirs.append(Path(path).parent)
        dirs.append(Path.cwd())
        self.search_dirs = list(dict.fromkeys(dirs))
        self._mapped = {}
        for directory in self.search_dirs:
            self._mapped.update(_sources_json(directory / "sources.json"))
        self._files.clear()

    def get(self, name: str | None) -> SourceFile | None:
        """The file the symbols call `name`, read and highlighted; None if not found."""
        if not name:
            return None
        if name not in self._files:
            path = self.find(name)
            self._files[name] = None if path is None else _read(name, path)
        return self._files[name]

    def find(self, name: str) -> Path | None:
        candidates = [Path(name)] if Path(name).is_absolute() else []
        if name in self._mapped:
            candidates.append(self._mapped[name])
        candidates += [directory / name for directory in self.search_dirs]
        for candidate in candidates:
            if candidate.is_file():
                return candidate
        return None


def _sources_json(path: Path) -> dict[str, Path]:
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
        return {entry["file"]: Path(entry["path"]) for entry in doc.get("sources", [])
                if isinstance(entry, dict) and "file" in entry and "path" in entry}
    except (OSError, ValueError, TypeError, AttributeError):
        return {}


def _read(name: str, path: Path) -> SourceFile | None:
    try:
        code = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    return SourceFile(name, path, highlight(code, path.suffix.lower()))


def highlight(code: str, suffix: str) -> tuple[Text, ...]:
    """One rich Text per line, syntax-highlighted by the file's language."""
    code = code.expandtabs(4)
    lexer = LEXERS.get(suffix)
    if lexer is None:
        return tuple(Text(line) for line in code.splitlines())
    text = Syntax(code, lexer, theme=THEME, background_color="default").highlight(code)
    lines = tuple(text.split("\n", allow_blank=True))
    count = len(code.splitlines())
    return lines[:count]
