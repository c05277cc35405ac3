"""Readable text for command results and events, for any front end (UI-free).

    lines = render(inv.command.view, result, ctx)     # list of lines of (style, text)
    plain(lines)                                      # the text without styles
    event_lines(event, ctx)                           # a live event

Styles are class names (`class:addr`, ...; see text.py) a front end maps to colours.
"""
from __future__ import annotations

from typing import Any, Callable

from . import debug, executive, machine
from .events import CATEGORIES, EventFilter, category, event_lines
from .text import Context, Fragment, Line, as_json, generic, line, plain, s, table

VIEWS: dict[str, Callable[[dict[str, Any], Context], list[Line]]] = {
    "tasks": executive.tasks, "task": executive.task, "resumed": executive.resumed,
    "load": executive.load,
    "info": executive.info, "logs": executive.logs, "clock": executive.clock,
    "sched": executive.sched, "mailboxes": executive.mailboxes,
    "messages": executive.messages, "sent": executive.sent, "written": executive.written,
    "stdio": executive.stdio, "stdin": executive.stdin, "values": executive.values,
    "value_one": executive.value_one,
    "commands": executive.commands, "called": executive.called,
    "sessions": executive.sessions, "session": executive.session, "ping": executive.ping,
    "memory": machine.memory, "registers": machine.registers, "disasm": machine.disasm,
    "stack": debug.stack, "breakpoints": debug.breakpoints, "breakpoint": debug.breakpoint,
    "cleared": debug.cleared, "watches": debug.watches, "watch": debug.watch,
    "symbols": debug.symbols, "symbol": debug.symbol, "regions": debug.regions,
    "locals": debug.locals_, "variables": debug.variables, "value": debug.value,
    "expanded": debug.expanded, "step": debug.step, "started": debug.started,
    "jumped": debug.jumped, "listing": debug.listing, "history": debug.history,
    "trace": debug.trace, "timeline": debug.timeline, "json": lambda data, ctx: as_json(data),
}


def render(view: str, data: Any, ctx: Context | None = None) -> list[Line]:
    """The lines showing `data` as `view`; anything unexpected falls back to key: value
    lines (a reply of a newer executive must never break the console)."""
    ctx = ctx or Context()
    if isinstance(data, dict) and "disasm" in data and view == "memory":
        view = "disasm"                              # x/8i
    show = VIEWS.get(view)
    if show is None:
        return generic(data)
    try:
        return show(data, ctx)
    except (KeyError, TypeError, ValueError, AttributeError, IndexError):
        return generic(data)


__all__ = ["CATEGORIES", "Context", "EventFilter", "Fragment", "Line", "VIEWS", "category",
           "event_lines", "generic", "line", "plain", "render", "s", "table"]
