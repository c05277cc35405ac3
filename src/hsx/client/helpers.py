"""Typed helpers for the debugger's commands, one table for both clients.

`Client.evaluate(pid, "list->head->value")` and `await AsyncClient.evaluate(...)` are
made from the same row: the command, its fields in the order the helper takes them
(keyword arguments work too), defaults, and the reply key the helper returns. Fields
left at None are not sent, so the server's own defaults apply.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Helper:
    cmd: str
    params: tuple[str, ...]
    result: str | None                     # the reply's key to return (None: the reply)
    doc: str
    defaults: dict[str, Any] = field(default_factory=dict)

    def fields(self, name: str, args: tuple, kwargs: dict[str, Any]) -> dict[str, Any]:
        if len(args) > len(self.params):
            raise TypeError(f"{name}() takes {len(self.params)} arguments, got {len(args)}")
        values = {**self.defaults, **dict(zip(self.params, args)), **kwargs}
        unknown = set(kwargs) - set(self.params)
        if unknown:
            raise TypeError(f"{name}() got unexpected arguments {sorted(unknown)}")
        missing = [p for p in self.params if p not in values]
        if missing:
            raise TypeError(f"{name}() is missing {', '.join(missing)}")
        return {k: v for k, v in values.items() if v is not None}

    def pick(self, reply: dict[str, Any]) -> Any:
        return reply if self.result is None else reply.get(self.result)


HELPERS: dict[str, Helper] = {
    "frame_variables": Helper(
        "frame.variables", ("pid", "frame", "scope"), "variables",
        "Arguments, locals, globals and registers of frame `frame` (0 = innermost); "
        "`scope` is all, arguments, locals, globals or registers.",
        {"frame": 0, "scope": "all"}),
    "expand": Helper(
        "variables.expand", ("ref", "start", "count"), "variables",
        "The children of an expandable value (`ref` from a listing), a page at a time.",
        {"start": 0, "count": None}),
    "evaluate": Helper(
        "evaluate", ("pid", "expr", "frame"), "result",
        "A C expression evaluated in a frame: value, type, and a `ref` for aggregates.",
        {"frame": 0}),
    "set_variable": Helper(
        "set", ("pid", "lvalue", "value", "frame"), "result",
        "Store the C expression `value` into `lvalue` (needs the PID lock).",
        {"frame": 0}),
    "stack": Helper(
        "stack.info", ("pid", "max_frames"), "stack",
        "The call stack, innermost frame first.", {"max_frames": None}),
    "disassemble": Helper(
        "disasm.read", ("pid", "addr", "count", "mode"), "disasm",
        "Instructions around (or from) an address, symbol or file:line; default: the pc.",
        {"addr": None, "count": None, "mode": None}),
    "set_breakpoint": Helper(
        "bp.set", ("pid", "addr", "condition", "temporary"), None,
        "A breakpoint at an address, symbol (\"main\") or \"file.c:12\".",
        {"condition": None, "temporary": None}),
    "clear_breakpoint": Helper(
        "bp.clear", ("breakpoint_id",), "cleared", "Remove a breakpoint by id."),
    "breakpoints": Helper(
        "bp.list", ("pid",), "breakpoints", "Breakpoints (of one task, or all).",
        {"pid": None}),
    "add_watch": Helper(
        "watch.add", ("pid", "expr", "length", "stop", "frame"), "watch",
        "Watch what a C expression (in `frame`; or an address, or a symbol) names; `stop` "
        "pauses on change.",
        {"length": None, "stop": None, "frame": None}),
    "step": Helper("step", ("pid", "count"), "result",
                   "Execute `count` instructions of the task (default 1). Up to 10,000 are done "
                   "when it returns (`executed`); a longer step returns `pending: \"step\"` and "
                   "ends with a debug_break (`pause` interrupts it).", {"count": None}),
    "pause": Helper("pause", ("pid",), None, "Pause one task (or, pid None, every task).",
                    {"pid": None}),
    "resume": Helper("resume", ("pid",), None, "Resume one paused task (or, pid None, all).",
                     {"pid": None}),
    "step_over": Helper("step.over", ("pid",), "result",
                        "One instruction, running a call instruction to its return."),
    "step_line": Helper("step.line", ("pid", "mode"), "result",
                        "Run to another source line: mode \"over\" (default: calls run to their "
                        "return), \"into\" (stop in called functions that have lines) or "
                        "\"out\" (until the function returns).", {"mode": None}),
    "step_out": Helper("step.out", ("pid",), "result", "Run until the function returns."),
    "run_to": Helper("run.to", ("pid", "addr"), "result",
                     "Run until an address, symbol or file:line is reached."),
    "read_source": Helper("source.read", ("pid", "file"), "source",
                          "A source file the task's symbols name, read on the executive's "
                          "machine: {pid, file, path, text}."),
    "jump": Helper("jump", ("pid", "addr"), "result",
                   "Move a paused task's PC to an address, symbol or file:line of the function "
                   "it is stopped in; nothing runs (gdb's jump)."),
    "history_on": Helper("history.on", ("pid", "budget_mb"), "history",
                         "Record the task so it can go back (budget in MiB, default 32).",
                         {"budget_mb": None}),
    "history_off": Helper("history.off", ("pid",), "history", "Stop recording the task."),
    "step_back": Helper("step.back", ("pid", "unit"), "result",
                        "One instruction back, or (unit=\"line\") to the previous line's start.",
                        {"unit": None}),
    "continue_back": Helper("continue.back", ("pid",), "result",
                            "Back to the latest breakpoint hit, or to the history's start."),
}


def _sync_method(name: str, helper: Helper):
    def method(self, *args: Any, **kwargs: Any) -> Any:
        return helper.pick(self.request(helper.cmd, **helper.fields(name, args, kwargs)))
    method.__name__, method.__doc__ = name, helper.doc
    return method


def _async_method(name: str, helper: Helper):
    async def method(self, *args: Any, **kwargs: Any) -> Any:
        return helper.pick(await self.request(helper.cmd, **helper.fields(name, args, kwargs)))
    method.__name__, method.__doc__ = name, helper.doc
    return method


def install(cls: type, asynchronous: bool) -> type:
    """Give a client class the helpers (as coroutines for the asyncio client)."""
    make = _async_method if asynchronous else _sync_method
    for name, helper in HELPERS.items():
        setattr(cls, name, make(name, helper))
    return cls
