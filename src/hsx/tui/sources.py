"""Source files for the source panel: finding them from what the symbols say, and
highlighting them once.

Files are found as `hsx.client.sources.SourceFinder` finds them (as given, through the
`.sym`'s `sources` map, next to the symbol file or the program, in the current
directory).  The debugger usually runs on the executive's machine; when it does not,
a file that is not here is read through the executive (`source.read`, `fetch`), and
one on neither machine leaves the panel saying so (disassembly still works).
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Awaitable, Callable, Iterable

from rich.syntax import Syntax
from rich.text import Text

from hsx.client import ProtocolError
from hsx.client.sources import SourceFinder

LEXERS = {".c": "c", ".h": "c", ".mvasm": "nasm", ".s": "nasm", ".asm": "nasm"}
THEME = "monokai"


@dataclass(frozen=True)
class SourceFile:
    name: str                   # as the symbols name it
    path: Path
    lines: tuple[Text, ...]


class SourceCache:
    def __init__(self) -> None:
        self._finder = SourceFinder()
        self._context: tuple[str | None, str | None] = (None, None)
        self._files: dict[str, SourceFile | None] = {}
        self._fetched: set[str] = set()          # asked of the executive already

    def set_context(self, symbols_path: str | None, program: str | None) -> None:
        """Where to look: the task's symbol file (its `sources` map) and program."""
        self._context = (symbols_path, program)
        self._finder = SourceFinder()           # the .sym may have been rebuilt
        self._files.clear()
        self._fetched.clear()

    async def fetch(self, names: Iterable[str | None],
                    read: Callable[[str], Awaitable[dict[str, Any]]]) -> None:
        """Files of `names` not on this machine, read through the executive once each
        (`read` is `source.read`); the executive may not have them either."""
        for name in names:
            if not name or name in self._fetched or self.get(name) is not None:
                continue
            self._fetched.add(name)
            try:
                found = await read(name)
            except ProtocolError:
                continue
            path = Path(found["path"])
            self._files[name] = SourceFile(name, path, highlight(found["text"],
                                                                 path.suffix.lower()))

    def get(self, name: str | None) -> SourceFile | None:
        """The file the symbols call `name`, read and highlighted; None if not found."""
        if not name:
            return None
        if name not in self._files:
            path = self.find(name)
            self._files[name] = None if path is None else _read(name, path)
        return self._files[name]

    def find(self, name: str) -> Path | None:
        symbols, program = self._context
        return self._finder.find(name, program, symbols)


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
