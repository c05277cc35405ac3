"""The executive's events as DAP events: stops, output, threads, the end.

One task reads the session's subscription and, holding the adapter's turn (so a
response always precedes the events it causes), turns each batch into `stopped`,
`continued`, `output` (every line prefixed `[app pid] `), `thread` and, when the
debugged task ends, `exited` + `terminated`.  A breakpoint's hit condition or log
message is applied here: such a stop resumes at once and the user never sees it.
"""
from __future__ import annotations

import logging
from typing import Any

from hsx.client import ConnectionClosed, ProtocolError

from .breakpoints import DataId, Placed, log_parts
from .debuggee import ENDED, Debuggee

log = logging.getLogger("hsx.dap")

STOP_REASONS = {"source": "breakpoint", "function": "function breakpoint",
                "instruction": "instruction breakpoint", "data": "data breakpoint"}


class EventPump:
    def __init__(self, adapter: Any, debuggee: Debuggee) -> None:
        self.adapter = adapter
        self.debuggee = debuggee
        self._line_start: dict[tuple[int, str], bool] = {}

    async def run(self) -> None:
        try:
            while True:
                batch = await self.debuggee.client.next_events()
                async with self.adapter.turn:
                    for event in batch:
                        await self.on_event(event)
        except ConnectionClosed as error:
            if self.adapter.debuggee is self.debuggee and not self.debuggee.ended:
                self.debuggee.ended = True
                self.adapter.output(f"lost the connection to the executive ({error})\n",
                                    "important")
                self.adapter.event("terminated")

    async def on_event(self, event: dict[str, Any]) -> None:
        kind, pid = event.get("type"), event.get("pid")
        data = event.get("data") or {}
        try:
            if kind in ("stdout", "stderr"):
                self.output(pid, kind, data.get("text", ""))
            elif kind == "task_state":
                self.on_state(pid, data)
            elif kind == "debug_break":
                await self.on_break(pid, data)
            elif kind == "fault" and pid != self.debuggee.pid:
                self.output(pid, "stderr", f"fault: {data.get('message') or data.get('kind')}\n")
        except (ProtocolError, TimeoutError) as error:
            log.warning("while handling %s: %s", kind, error)
        except ConnectionClosed:
            raise
        except Exception:                      # a bug of ours: keep the session going
            log.exception("while handling %s", event)

    # ------------------------------------------------------------------ output

    def output(self, pid: int | None, stream: str, text: str) -> None:
        if not text:
            return
        name = self.debuggee.names.get(pid, "?") if pid is not None else "executive"
        prefix = f"[{name} {pid}] "
        key = (pid or 0, stream)
        start = self._line_start.get(key, True)
        lines = text.split("\n")
        out = []
        for index, piece in enumerate(lines):
            last = index == len(lines) - 1
            if last and not piece:
                break
            out.append((prefix if start else "") + piece + ("" if last else "\n"))
            start = not last
        self._line_start[key] = text.endswith("\n")
        self.adapter.output("".join(out), stream)

    # ------------------------------------------------------------------ task states

    def on_state(self, pid: int, data: dict[str, Any]) -> None:
        debuggee, adapter = self.debuggee, self.adapter
        new, reason = data.get("new_state"), data.get("reason")
        if reason == "loaded":
            debuggee.names[pid] = data.get("app_name") or debuggee.names.get(pid) or str(pid)
            adapter.event("thread", reason="started", threadId=pid)
        elif new in ENDED:
            if pid == debuggee.pid:
                if new != "faulted":        # a fault stops first (debug_break) and ends later
                    self.finish(data)
            else:
                adapter.event("thread", reason="exited", threadId=pid)
        elif new == "paused" and reason == "user_pause" and pid in debuggee.controlled:
            adapter.event("stopped", reason="pause", threadId=pid, allThreadsStopped=False)
        elif data.get("prev_state") == "paused" and reason == "resume":
            if pid in debuggee.resuming:
                debuggee.resuming.discard(pid)
            elif pid in debuggee.controlled:
                adapter.handles.reset()
                adapter.event("continued", threadId=pid, allThreadsContinued=False)

    def finish(self, data: dict[str, Any]) -> None:
        """The debugged task is over: say how, then end the session."""
        debuggee = self.debuggee
        if debuggee.exit_reported:
            return
        debuggee.ended = debuggee.exit_reported = True
        status = data.get("exit_status")
        code = status if isinstance(status, int) else 1
        if data.get("new_state") == "killed":
            self.adapter.output(f"{debuggee.app_name} (PID {debuggee.pid}) was killed\n")
        self.adapter.event("exited", exitCode=code)
        self.adapter.event("terminated")

    # ------------------------------------------------------------------ stops

    async def on_break(self, pid: int, data: dict[str, Any]) -> None:
        debuggee, adapter = self.debuggee, self.adapter
        if pid not in debuggee.controlled:
            return                               # another debugger's task
        debuggee.resuming.discard(pid)
        reason = data.get("reason")
        stop: dict[str, Any] = {"reason": "step"}
        if reason == "breakpoint":
            bp_id = data.get("breakpoint_id")
            if pid == debuggee.pid and bp_id is not None and bp_id == debuggee.entry_breakpoint:
                debuggee.entry_breakpoint = None
                stop = {"reason": "entry"}
            else:
                placed = adapter.breakpoints.by_exec(bp_id, data=False)
                if placed is not None and not data.get("reverse"):
                    if not placed.counts():
                        return await self.resume_unseen(pid)
                    if placed.log_message:
                        await self.log_point(pid, placed.log_message)
                        return await self.resume_unseen(pid)
                stop = {"reason": STOP_REASONS[placed.kind] if placed else "breakpoint"}
                if placed is not None:
                    stop["hitBreakpointIds"] = [placed.id]
            if data.get("condition_error"):
                stop["description"] = f"the condition failed: {data['condition_error']}"
        elif reason == "brk":
            stop = {"reason": "breakpoint", "description": f"BRK {data.get('code', '')}".strip()}
        elif reason == "watch":
            placed = adapter.breakpoints.by_exec(data.get("watch_id"), data=True)
            stop = {"reason": "data breakpoint",
                    "description": self.report_data_change(placed, data)}
            if placed is not None:
                stop["hitBreakpointIds"] = [placed.id]
        elif reason == "fault":
            stop = {"reason": "exception", "description": f"{data.get('kind', 'a')} fault",
                    "text": data.get("message", "")}
            if pid == debuggee.pid:
                debuggee.ended = True
        elif reason == "history_start":
            stop = {"reason": "step", "description": "the start of the recorded history"}
        adapter.event("stopped", threadId=pid, allThreadsStopped=False, **stop)

    def report_data_change(self, placed: Placed | None, data: dict[str, Any]) -> str:
        """What a data breakpoint saw change, as the stop's description ("stock[1].qty
        changed: 3 -> 7"), also written to the console, where it stays."""
        change = data.get("change")
        if change:
            self.adapter.output(f"data breakpoint: {change['what']} changed from "
                                f"{change['old']} to {change['new']}\n")
            return f"{change['what']} changed: {change['old']} -> {change['new']}"
        if placed is not None:                  # set, so its dataId was valid
            return f"{DataId.parse(placed.request['dataId']).expression} changed"
        return f"memory at 0x{data.get('addr', 0):04x} changed"

    async def resume_unseen(self, pid: int) -> None:
        await self.debuggee.run(pid, self.debuggee.request("resume", pid=pid))

    async def log_point(self, pid: int, message: str) -> None:
        text = []
        for piece, is_expression in log_parts(message):
            if not is_expression:
                text.append(piece)
                continue
            try:
                text.append((await self.debuggee.client.evaluate(pid, piece, 0))["value"])
            except ProtocolError as error:
                text.append(f"<{error.message or error.code}>")
        self.adapter.output("".join(text) + "\n", "console")
