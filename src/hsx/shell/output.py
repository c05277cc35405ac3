"""Where the console's text goes: styled lines in colour (when the terminal has it and
neither --no-color nor NO_COLOR says otherwise), plain text, or JSON for scripts.

Printing goes through prompt_toolkit while a prompt is up, so live events appear above
the line being typed without garbling it.
"""
from __future__ import annotations

import json
import os
import sys
from typing import Any, TextIO

from prompt_toolkit import print_formatted_text
from prompt_toolkit.formatted_text import FormattedText
from prompt_toolkit.styles import Style

from hsx.client.render import Line, plain

STYLE = Style.from_dict({
    "head": "bold", "dim": "#888888", "addr": "ansicyan", "sym": "ansiyellow",
    "num": "ansimagenta", "str": "ansigreen", "key": "bold", "ok": "ansigreen",
    "warn": "ansiyellow", "err": "ansired bold", "pc": "reverse bold", "bp": "ansired bold",
    "changed": "ansiyellow bold", "label": "ansiyellow", "src": "italic #a0a0a0",
    "file": "ansiblue", "mnemonic": "", "pid": "ansiblue",
    "bottom-toolbar": "noreverse bg:#303030 #d0d0d0", "toolbar.usage": "bold",
    "toolbar.current": "bold underline ansiyellow", "toolbar.dim": "#909090",
})


def wants_color(no_color: bool, stream: TextIO | None = None) -> bool:
    """Colour only on a terminal, and not when --no-color or NO_COLOR (non-empty) says no."""
    stream = stream or sys.stdout
    return not no_color and not os.environ.get("NO_COLOR") and stream.isatty()


class Printer:
    def __init__(self, color: bool, as_json: bool) -> None:
        self.color = color
        self.as_json = as_json
        self.interactive = False         # at the prompt errors go above it, with the rest

    def lines(self, lines: list[Line], err: bool = False) -> None:
        if not lines:
            return
        err = err and not self.interactive
        if self.color:
            fragments: list[tuple[str, str]] = []
            for index, ln in enumerate(lines):
                fragments += [*ln, ("", "\n")] if index < len(lines) - 1 else ln
            print_formatted_text(FormattedText(fragments), style=STYLE,
                                 file=sys.stderr if err else None)
        else:
            print(plain(lines), file=sys.stderr if err else sys.stdout, flush=True)

    def text(self, text: str, style: str = "", err: bool = False) -> None:
        self.lines([[(f"class:{style}" if style else "", text)]], err)

    def json(self, value: Any) -> None:
        print(json.dumps(value), flush=True)

    def error(self, message: str) -> None:
        self.text(f"hsx: {message}", "err", err=True)


def refusal(what: str, error: Any) -> str:
    """An error reply in the common voice: `WHAT: WHY (code)` (a command the variant
    lacks: WHY names the variant that has it), from `hsx execd` and a board alike."""
    return f"{what}: {error.message or error.code} ({error.code})"
