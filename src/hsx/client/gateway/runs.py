"""The gateway's run control: the steps it drives (stepping.py), the breakpoints they
plant, the device's own step stops it hides, breakpoint conditions checked on the host,
and the events the front end gets, with names (part of `Gateway`)."""
from __future__ import annotations

import time
from typing import Any

from hsx.debug import DebugError
from hsx.debug.conditions import ConditionError

from ..drive import Steps
from ..errors import ProtocolError

WAIT = ("<wait>", {})          # a step's "resume me with the task's next stop"
GATEWAY_EVENTS = ["debug_break", "task_state", "fault"]
ENDED = ("returned", "faulted", "killed")
MAX_EXPECTED = 64              # the gateway's own step stops still to come, per task


class Cancelled(Exception):
    """Thrown into a pending step to end it (its breakpoints come out on the way)."""


class RunControl:
    """Mixed into `Gateway`: uses its views, symbols and state."""

    # -- steps ---------------------------------------------------------------------------

    def start_step(self, pid: int, kind: str, op: Steps, leaving: str | None = None) -> Steps:
        """Begin a step of a paused task (pausing it first); the reply says `pending`
        (and for a step out, the function it `leaving`s)."""
        if not self.debugs:
            message = (f"{kind.replace('_', '.')} needs the development or full variant; "
                       "this board runs minimal")
            raise ProtocolError("unsupported", message, {
                "status": "error", "error": "unsupported", "message": message,
                "variant_required": "development"})
        yield from self.cancel_step(pid)
        entry = yield from self.view(pid)
        task = entry.task
        if task.ended:
            raise DebugError("task_ended", f"task {pid} has ended ({task.state.value})")
        if task.state is None or task.state.value != "paused":
            yield ("pause", {"pid": pid})
            self.changed(pid)
            task = (yield from self.view(pid)).task
        if not self.subscribed:                   # the step needs the task's stops
            yield ("events.subscribe", {"categories": GATEWAY_EVENTS})
            self.subscribed = True
        pc = task.ctx.pc
        yield from self.advance(pid, kind, op, None)
        state = "ready" if pid in self.pending else task.state.value   # running, as execd's
        result = {"pid": pid, "pc": pc, "state": state, "pending": kind}
        return {"result": {**result, "function": leaving} if leaving else result}

    def advance(self, pid: int, kind: str, op: Steps, value: Any,
                error: BaseException | None = None) -> Steps:
        """Run a step until it waits for the task's next stop, or ends (its end goes to
        the outbox as a debug_break event)."""
        while True:
            try:
                item = op.throw(error) if error is not None else op.send(value)
            except StopIteration as done:
                self.pending.pop(pid, None)
                if done.value is not None:
                    self.outbox.append(done.value)
                return
            except Cancelled:
                self.pending.pop(pid, None)
                return
            if item is WAIT:
                self.pending[pid] = (kind, op)
                return
            try:
                value, error = (yield item), None
            except ProtocolError as failure:
                value, error = None, failure

    def cancel_step(self, pid: int) -> Steps:
        """Abandon the task's pending step, if any (another step, a run-to, a pause)."""
        pending = self.pending.pop(pid, None)
        if pending is not None:
            yield from self.advance(pid, pending[0], pending[1], None, Cancelled())

    def step_ended(self, pid: int, extra: dict[str, Any]) -> dict[str, Any]:
        """The event that ends a step, where the task is now (its view is current)."""
        task = self.symbols.get(pid).task
        data = {"pid": pid, "pc": task.ctx.pc, "reason": "step",
                **self.symbols.describe(pid, task.ctx.pc), **extra}
        return {"seq": self.last_seq, "ts": time.time(), "type": "debug_break", "pid": pid,
                "data": data}

    def instruction_step(self, pid: int) -> Steps:
        """One instruction of a step (its own debug_break is not shown); True when the
        task is no longer paused after it (ended, faulted)."""
        reply = yield ("step", {"pid": pid, "count": 1})
        result = reply.get("result", {})
        self.changed(pid)
        if isinstance(result.get("pc"), int):
            expected = self.expected.setdefault(pid, [])
            expected.append(result["pc"])
            del expected[:-MAX_EXPECTED]           # stops that never came are forgotten
        return result.get("state") != "paused"

    def plant(self, pid: int, addr: int) -> Steps:
        """A breakpoint of the step's at `addr`: its id (one the user had there already
        is used as it is and left in place)."""
        before = {bp["id"] for bp in (yield ("bp.list", {"pid": pid})).get("breakpoints", [])}
        reply = yield ("bp.set", {"pid": pid, "addr": addr})
        bp_id = reply["breakpoint_id"]
        if bp_id not in before:
            self.planted.add(bp_id)
        return bp_id

    def unplant(self, pid: int, bp_id: int) -> Steps:
        if bp_id in self.planted:
            self.planted.discard(bp_id)
            try:
                yield ("bp.clear", {"breakpoint_id": bp_id})
            except ProtocolError:
                pass                              # gone with its task

    def user_breakpoints(self, pid: int) -> Steps:
        """{address: id} of the task's enabled breakpoints (a step stops at them)."""
        listed = (yield ("bp.list", {"pid": pid})).get("breakpoints", [])
        return {bp.get("address", bp.get("addr")): bp["id"] for bp in listed
                if bp.get("enabled", True) and bp["id"] not in self.planted}

    # -- events ---------------------------------------------------------------------------

    def on_event(self, event: dict[str, Any]) -> Steps:
        """What the front end gets for one event from the device: it, with names; nothing
        (a stop the gateway handles itself); or a step's end."""
        kind, pid = event.get("type"), event.get("pid")
        if isinstance(event.get("seq"), int):
            self.last_seq = event["seq"]
        if kind == "board_reset":
            self.reset()
            return [event]
        if not isinstance(pid, int):
            return [event]
        data = event.get("data") or {}
        if kind in ("task_state", "debug_break", "fault", "watch_update"):
            self.changed(pid)
        if kind == "task_state" and (data.get("new_state") in ENDED
                                     or data.get("reason") == "user_pause"):
            yield from self.cancel_step(pid)
        if kind == "watch_update":
            return [{**event, "data": self._watch_described(data, data.get("id"))}]
        if kind != "debug_break":
            return [event]
        expected = self.expected.get(pid)
        if data.get("reason") == "step" and expected and data.get("pc") in expected:
            expected.remove(data["pc"])
            return []
        if pid in self.pending:
            step_kind, op = self.pending.pop(pid)
            before = len(self.outbox)
            yield from self.advance(pid, step_kind, op, data)
            if pid in self.pending:
                return []                         # a stop on the way (a recursive call)
            if len(self.outbox) > before:
                return self.take_outbox()
        if data.get("reason") == "breakpoint" and data.get("breakpoint_id") in self.conditions:
            holds, error = yield from self._condition(pid, data["breakpoint_id"])
            if not holds:                         # not a stop: the hit does not count
                self.unseen[data["breakpoint_id"]] = self.unseen.get(data["breakpoint_id"], 0) + 1
                yield ("resume", {"pid": pid})
                self.changed(pid)
                return []
            if error is not None:
                data = {**data, "condition_error": error}
        return [{**event, "data": (yield from self.described(pid, data))}]

    def take_outbox(self) -> list[dict[str, Any]]:
        out, self.outbox = self.outbox, []
        return out

    def _watch_described(self, data: dict[str, Any], watch_id: Any) -> dict[str, Any]:
        """A watch's update or stop with what the watch is on (the host set it by name)
        and, for a C object, what changed in it, from what to what."""
        out = dict(data)
        if watch_id in self.watch_names and "symbol" in out:
            out["symbol"] = self.watch_names[watch_id]
        describe = self.watch_changes.get(watch_id)
        try:
            change = describe(bytes.fromhex(data["old"]), bytes.fromhex(data["new"])) \
                if describe is not None else None
        except (KeyError, TypeError, ValueError):
            change = None
        if change is not None:
            out["change"] = change
        return out

    def described(self, pid: int, data: dict[str, Any]) -> Steps:
        """`debug_break` data with the place by name and line (the host's symbols)."""
        if data.get("reason") == "watch":
            data = self._watch_described(data, data.get("watch_id"))
        out = {k: v for k, v in data.items() if k not in ("symbol", "offset", "file", "line")}
        pc = out.get("pc")
        if isinstance(pc, int):
            try:
                yield from self.attached(pid)
                out.update(self.symbols.describe(pid, pc))
            except (DebugError, ProtocolError):
                pass
        return out

    def _condition(self, pid: int, bp_id: int) -> Steps:
        """(holds, error) of a breakpoint's condition in the stopped task's frame 0."""
        condition = self.conditions[bp_id]
        yield from self.view(pid)
        try:
            holds = yield from self.computed(
                pid, lambda: condition.holds(self.inspector.frame0(pid)))
        except ConditionError as exc:
            return True, f"condition {condition.text!r} failed: {exc}"
        return holds, None
