"""Pieces of the console that need no terminal: the toolbar, colour choice."""
from __future__ import annotations

import asyncio
import io

from hsx.shell.core import Shell
from hsx.shell.output import Printer, wants_color
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


class StopBeforeReply:
    """An executive whose stop event reaches the console before the reply of the `next`
    that caused it, and the console has every chance to show it first."""

    def __init__(self) -> None:
        self.events: asyncio.Queue = asyncio.Queue()

    async def request(self, cmd, **fields):
        if cmd == "info":
            return {"info": {"variant": "development", "features": ["events", "debug"],
                             "tasks": [{"pid": 1, "app_name": "prog"}]}}
        if cmd == "ps":
            return {"tasks": {"tasks": [{"pid": 1, "app_name": "prog", "state": "paused"}]}}
        if cmd == "step.line":
            self.events.put_nowait({"type": "debug_break", "pid": 1, "data": {
                "pc": 8, "reason": "step", "symbol": "main", "offset": 8}})
            for _ in range(20):
                await asyncio.sleep(0)
            return {"result": {"pid": 1, "pc": 4, "state": "ready", "pending": "step_line"}}
        raise AssertionError(f"unexpected {cmd}")

    async def subscribe(self, categories, coalesce_ms=None):
        return {}

    async def next_event(self, timeout=None):
        return await self.events.get()


def test_a_run_commands_reply_is_shown_before_the_stop_it_causes(capsys):
    async def session():
        shell = Shell(StopBeforeReply(), Printer(False, False), interactive=False)
        await shell.start()
        try:
            assert await shell.execute("next 1") == 0
        finally:
            await shell.stop()
    asyncio.run(session())
    lines = capsys.readouterr().out.splitlines()
    assert lines == ["pid 1 prog running (the stop is announced)",
                     "[1 prog] stopped: step at 0x0008 main+0x8"]
