"""Where the console's text goes: styled lines in colour (when the terminal has it and
neither --no-color nor NO_COLOR says otherwise), plain text, or JSON for scripts.

Printing goes through prompt_toolkit while a prompt is up, so live events appear above
the line being typed without garbling it.  Without a prompt (one command, a script)
the colours are written as ANSI escapes here: `hsx shell ps` does not load
prompt_toolkit, a third of its start-up.
"""
from __future__ import annotations

import json
import os
import sys
from functools import cache
from typing import Any, TextIO

from hsx.client.render import Line, plain

# Style class -> prompt_toolkit style: the prompt's `Style`, and `sgr` for the rest.
STYLE_RULES = {
    "head": "bold", "dim": "#888888", "addr": "ansicyan", "sym": "ansiyellow",
    "num": "ansimagenta", "str": "ansigreen", "key": "bold", "ok": "ansigreen",
    "warn": "ansiyellow", "err": "ansired bold", "pc": "reverse bold", "bp": "ansired bold",
    "changed": "ansiyellow bold", "label": "ansiyellow", "src": "italic #a0a0a0",
    "file": "ansiblue", "mnemonic": "", "pid": "ansiblue",
    "bottom-toolbar": "noreverse bg:#303030 #d0d0d0", "toolbar.usage": "bold",
    "toolbar.current": "bold underline ansiyellow", "toolbar.dim": "#909090",
}
_ATTRIBUTES = {"bold": "1", "italic": "3", "underline": "4", "reverse": "7", "noreverse": "27"}
_ANSI = ("black", "red", "green", "yellow", "blue", "magenta", "cyan", "gray")
_ANSI_CODES = {**{f"ansi{name}": 30 + k for k, name in enumerate(_ANSI)},
               **{f"ansibright{name}": 90 + k for k, name in enumerate(_ANSI)},
               "ansiwhite": 97, "ansidarkgray": 90}
_CUBE = (0, 95, 135, 175, 215, 255)      # the 256-colour palette's 6x6x6 cube levels


@cache
def prompt_style():
    """The prompt_toolkit `Style` of the rules (imports prompt_toolkit)."""
    from prompt_toolkit.styles import Style
    return Style.from_dict(STYLE_RULES)


def _palette_index(rgb: str) -> int:
    """The nearest colour of the 256-colour palette's cube and grey ramp (16-255), as
    prompt_toolkit picks at its default colour depth."""
    want = [int(rgb[k:k + 2], 16) for k in (0, 2, 4)]
    candidates = [(16 + 36 * r + 6 * g + b, (_CUBE[r], _CUBE[g], _CUBE[b]))
                  for r in range(6) for g in range(6) for b in range(6)]
    candidates += [(232 + k, (8 + 10 * k,) * 3) for k in range(24)]
    return min(candidates, key=lambda c: sum((x - y) ** 2 for x, y in zip(c[1], want)))[0]


@cache
def sgr(style: str) -> str:
    """The ANSI escape that starts text in `style` ("class:a class:b" or a style string;
    "" for none)."""
    codes: list[str] = []
    for word in style.split():
        if word.startswith("class:"):
            codes.append(sgr(STYLE_RULES.get(word[6:], "")))
            continue
        background = word.startswith("bg:")
        word = word[3:] if background else word
        if word in _ATTRIBUTES and not background:
            codes.append(f"\x1b[{_ATTRIBUTES[word]}m")
        elif word in _ANSI_CODES:
            codes.append(f"\x1b[{_ANSI_CODES[word] + (10 if background else 0)}m")
        elif word.startswith("#") and len(word) == 7:
            codes.append(f"\x1b[{48 if background else 38};5;{_palette_index(word[1:])}m")
    return "".join(codes)


def ansi(lines: list[Line]) -> str:
    """The lines as text with ANSI colours, each styled fragment reset after it."""
    return "\n".join("".join(f"{sgr(style)}{text}\x1b[0m" if sgr(style) else text
                              for style, text in line) for line in lines)


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
        if self.color and self.interactive:
            from prompt_toolkit import print_formatted_text
            from prompt_toolkit.formatted_text import FormattedText
            fragments: list[tuple[str, str]] = []
            for index, ln in enumerate(lines):
                fragments += [*ln, ("", "\n")] if index < len(lines) - 1 else ln
            print_formatted_text(FormattedText(fragments), style=prompt_style())
        elif self.color:
            print(ansi(lines), file=sys.stderr if err else sys.stdout, flush=True)
        else:
            print(plain(lines), file=sys.stderr if err else sys.stdout, flush=True)

    def text(self, text: str, style: str = "", err: bool = False) -> None:
        self.lines([[(f"class:{style}" if style else "", text)]], err)

    def json(self, value: Any) -> None:
        print(json.dumps(value), flush=True)

    def error(self, message: str) -> None:
        self.text(f"hsx: {message}", "err", err=True)


def refusal(what: str, error: Any) -> str:
    """An error reply in the common voice: `WHAT: WHY (code)`."""
    return f"{what}: {error.message or error.code} ({error.code})"
