"""Pieces of the console that need no terminal: the toolbar, colour choice."""
from __future__ import annotations

import io

from hsx.shell.output import wants_color
from hsx.shell.repl import toolbar_fragments


def underlined(fragments) -> list[str]:
    return [text for style, text in fragments if style == "class:toolbar.current"]


def test_the_toolbar_underlines_the_argument_being_typed():
    assert underlined(toolbar_fragments("peek ", None, "", "h:1")) == ["PID"]
    assert underlined(toolbar_fragments("peek 1 ", None, "", "h:1")) == ["ADDR"]
    assert underlined(toolbar_fragments("peek 1 counter ", None, "", "h:1")) == ["[LENGTH]"]
    assert underlined(toolbar_fragments("peek ", 3, "3 blink", "h:1")) == ["ADDR"]
    assert underlined(toolbar_fragments("pee", None, "", "h:1")) == []   # still the name
    assert underlined(toolbar_fragments("bp set 4 ma", 3, "3 blink", "h:1")) == ["ADDR"]
    assert underlined(toolbar_fragments("stdin 4 hel", 3, "3 blink", "h:1")) == ["[TEXT...]"]
    assert underlined(toolbar_fragments("p x + ", 3, "3 blink", "h:1")) == ["EXPR..."]
    bar = "".join(text for _, text in toolbar_fragments("bp set 1 main ", None, "", "h:1"))
    assert bar.startswith(" bp set PID ADDR [if CONDITION] [--temporary]")
    idle = "".join(text for _, text in toolbar_fragments("", 3, "3 blink", "h:1"))
    assert "h:1 · current task 3 blink" in idle and "Ctrl-R" in idle


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_colour_only_on_a_terminal_and_never_against_no_color(monkeypatch):
    monkeypatch.delenv("NO_COLOR", raising=False)
    assert wants_color(False, Terminal())
    assert not wants_color(True, Terminal())                 # --no-color
    assert not wants_color(False, io.StringIO())             # a pipe
    monkeypatch.setenv("NO_COLOR", "1")
    assert not wants_color(False, Terminal())
    monkeypatch.setenv("NO_COLOR", "")                       # empty: no effect (no-color.org)
    assert wants_color(False, Terminal())
