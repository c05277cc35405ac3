"""Live events as lines, and the categories a front end filters them by.

    category(event)          -> "task", "break", "fault", "stdout", ... (or None)
    event_lines(event, ctx)  -> the lines to print

`EventFilter` keeps which categories are shown, for every task or per PID
(`events off stdout`, `events on stdout 2`).
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from .text import Context, Line, hexaddr, line, s, where

CATEGORIES = {
    "task": ("task_state",), "break": ("debug_break",), "fault": ("fault",),
    "stdout": ("stdout",), "stderr": ("stderr",), "watch": ("watch_update",),
    "warning": ("warning",), "mailbox": ("mailbox_",), "value": ("value_", "cmd_"),
    "log": ("dmesg",), "can": ("can_",), "board": ("board_reset",),
}
SHOWN = ("task", "break", "fault", "stdout", "stderr", "watch", "warning", "board")
# what to subscribe to for them (prefixes the executive accepts)
SUBSCRIBE = {"task": "task_state", "break": "debug_break", "fault": "fault", "stdout": "stdout",
             "stderr": "stderr", "watch": "watch_update", "warning": "warning",
             "mailbox": "mailbox", "value": ["value", "cmd"], "log": "dmesg", "can": "can",
             "board": []}          # (the client reports a board's reset itself)


def category(event: dict[str, Any]) -> str | None:
    kind = str(event.get("type", ""))
    for name, prefixes in CATEGORIES.items():
        if any(kind == p or (p.endswith("_") and kind.startswith(p)) for p in prefixes):
            return name
    return None


@dataclass
class EventFilter:
    """Categories on for every task, plus per-PID exceptions (on or off)."""
    shown: set[str] = field(default_factory=lambda: set(SHOWN))
    per_pid: dict[tuple[str, int], bool] = field(default_factory=dict)

    def set(self, on: bool, name: str, pid: int | None = None) -> None:
        names = list(CATEGORIES) if name == "all" else [name]
        for cat in names:
            if cat not in CATEGORIES:
                raise ValueError(f"no event category {name!r} (one of "
                                 f"{', '.join(CATEGORIES)}, all)")
            if pid is None:
                self.shown.add(cat) if on else self.shown.discard(cat)
                for key in [k for k in self.per_pid if k[0] == cat]:
                    del self.per_pid[key]
            else:
                self.per_pid[(cat, pid)] = on

    def wants(self, event: dict[str, Any]) -> bool:
        cat = category(event)
        if cat is None:
            return False
        pid = event.get("pid")
        return self.per_pid.get((cat, pid), cat in self.shown) if isinstance(pid, int) \
            else cat in self.shown

    def subscription(self) -> list[str]:
        """The categories to ask the executive for (anything some task may want)."""
        cats = self.shown | {cat for (cat, _), on in self.per_pid.items() if on}
        out: list[str] = []
        for cat in sorted(cats):
            sub = SUBSCRIBE[cat]
            out += sub if isinstance(sub, list) else [sub]
        return out

    def describe(self) -> list[Line]:
        out = [line(s("key", "shown: "), " ".join(sorted(self.shown)) or "(nothing)")]
        hidden = sorted(set(CATEGORIES) - self.shown)
        out.append(line(s("key", "hidden: "), " ".join(hidden) or "(nothing)"))
        for (cat, pid), on in sorted(self.per_pid.items()):
            out.append(line(s("key", f"pid {pid}: "), f"{cat} {'on' if on else 'off'}"))
        return out


def event_lines(event: dict[str, Any], ctx: Context) -> list[Line]:
    kind = event.get("type")
    data = event.get("data") or {}
    pid = event.get("pid")
    if kind == "task_state" and data.get("app_name") and isinstance(pid, int):
        ctx.names[pid] = data["app_name"]              # a new task: its name from here on
    tag = s("pid", f"[{ctx.task(pid)}] ") if pid is not None else ("", "")
    if kind in ("stdout", "stderr"):
        style = "err" if kind == "stderr" else ""
        text = str(data.get("text", ""))
        return [line(s("dim", f"{pid}| "), s(style, part))
                for part in (text[:-1] if text.endswith("\n") else text).split("\n")]
    if kind == "task_state":
        return [_task_state(tag, data, ctx, pid)]
    if kind == "debug_break":
        return _stop(tag, data, ctx, pid)
    if kind == "fault":
        return [line(tag, s("err", f"fault {data.get('kind')}"), " at ",
                     s("addr", hexaddr(data.get("pc"))), f": {data.get('message', '')}")]
    if kind == "watch_update":
        name = data.get("symbol") or hexaddr(data.get("addr"))
        by = [" by ", s("addr", hexaddr(data["pc"]))] if data.get("pc") is not None else []
        return [line(tag, f"watch {data.get('id')} {name}: ", s("dim", data.get("old", "")),
                     " -> ", s("changed", data.get("new", "")), *by)]
    if kind == "warning":
        return [line(s("warn", f"warning: {data.get('dropped', '?')} events dropped "
                               f"({data.get('reason')})"))]
    if kind == "board_reset":
        return [line(s("warn", f"the board was reset (boot {data.get('boot')}): its tasks, "
                               "sessions and subscriptions are gone"))]
    if kind == "dmesg":
        return [line(tag, s("dim", f"{data.get('level')}: "), str(data.get("message")))]
    return [line(tag, s("key", str(kind)), " ", s("dim", json.dumps(data, sort_keys=True)))]


def _task_state(tag: tuple[str, str], data: dict[str, Any], ctx: Context, pid: Any) -> Line:
    new = data.get("new_state")
    style = {"faulted": "err", "paused": "warn", "returned": "dim", "killed": "dim"}
    if data.get("prev_state") is None and data.get("reason"):     # it has just been loaded
        return line(tag, s("dim", f"{data['reason']}, "), s(style.get(new, "ok"), new))
    detail = ""
    if new == "returned":
        detail = f" with status {data.get('exit_status')}"
    elif data.get("reason") and data.get("reason") != new:
        detail = f" ({data['reason']})"
    before = "" if data.get("prev_state") is None else f"{data['prev_state']} -> "
    return line(tag, s("dim", before), s(style.get(new, "ok"), new), detail)


def _stop(tag: tuple[str, str], data: dict[str, Any], ctx: Context, pid: Any) -> list[Line]:
    reason = data.get("reason")
    what = {"breakpoint": f"breakpoint {data.get('breakpoint_id')}", "brk":
            f"BRK {data.get('code')}", "step": "step", "watch": f"watch {data.get('watch_id')}",
            "fault": f"fault {data.get('kind')}", "history_start": "start of history"
            }.get(reason, str(reason))
    back = " (reverse)" if data.get("reverse") else ""
    out = [line(tag, s("bp", f"stopped: {what}{back}"), " at ", s("addr", hexaddr(data.get("pc"))),
                " ", *where(data.get("symbol"), data.get("offset"), data.get("file"),
                            data.get("line")))]
    if data.get("condition_error"):
        out.append(line(s("warn", f"  condition failed: {data['condition_error']}")))
    text = ctx.source_line(pid, data.get("file"), data.get("line"))
    if text is not None:
        out.append(line(s("src", f"  {data['line']:>5}  {text.strip()}")))
    if data.get("returned"):
        out.append(_returned(data["returned"]))
    return out


def _returned(returned: dict[str, Any]) -> Line:
    """What a function `finish` ran out of returned (as gdb's "Value returned is")."""
    function, kind = returned.get("function"), returned.get("type")
    if "value" in returned:
        return line(f"  Value returned by {function}: ", s("num", str(returned["value"])),
                    s("dim", f" ({kind})"))
    why = "void" if kind == "void" else f"{kind}, returned in memory: not shown"
    return line(s("dim", f"  {function} returned ({why})"))
