"""Source-level steps on a board, made of its primitives (docs/protocol.md, "Run
control"): `step.line` runs instruction steps while the task stays on its line, and runs
over a call with a breakpoint at the return address (arrived when SP is back where it
was: a recursive call returns there too, deeper); `step.over` runs a call that way;
`step.out` runs to the caller's return address.  They answer at once (`pending`), as
`hsx execd` does, and end with one `debug_break {reason: "step"}`; a stop for any
other reason (a breakpoint, a fault, a pause) abandons them and is reported as it is.

A step is a generator run by `Gateway.advance`: it yields device requests, or `WAIT`
when the task runs freely and the step needs its next stop (`debug_break`), which is
then sent into it.  It returns the `debug_break` data to report, or None (abandoned:
the stop that ended it is reported instead).
"""
from __future__ import annotations

from typing import Any

from hsx.debug import DebugError, stack
from hsx.debug.code import SP
from hsx.debug.stepping import LINE_MODES, _bodies

from ..drive import Steps
from .core import WAIT, Gateway, as_pid, command
from .fields import session_of, text

MAX_STEPS = 100_000          # instruction steps one step.line takes at most


@command("step.over")
def step_over(gw: Gateway, fields: dict[str, Any]) -> Steps:
    pid = as_pid(fields.get("pid"))
    entry = yield from gw.view(pid)
    ctx = entry.task.ctx
    if not entry.code.is_call(ctx.pc):
        yield from gw.cancel_step(pid)
        reply = yield ("step", {**session_of(fields), "pid": pid, "count": 1})
        gw.changed(pid)
        return {"result": reply["result"]}
    return (yield from gw.start_step(pid, "step_over", _over_call(gw, pid, ctx.pc, ctx.regs[SP])))


@command("step.out")
def step_out(gw: Gateway, fields: dict[str, Any]) -> Steps:
    pid = as_pid(fields.get("pid"))
    op, leaving = yield from _out(gw, pid)
    return (yield from gw.start_step(pid, "step_out", op, leaving=leaving))


@command("step.line")
def step_line(gw: Gateway, fields: dict[str, Any]) -> Steps:
    pid = as_pid(fields.get("pid"))
    mode = text(fields, "mode", "over")
    if mode not in LINE_MODES:
        raise DebugError("bad_argument", f"mode must be one of {', '.join(LINE_MODES)}, "
                         f"not {mode!r}")
    entry = yield from gw.view(pid)
    if entry.table is None:
        raise DebugError("no_symbols", f"no symbols for task {pid}: source lines unknown")
    here = entry.table.line_for(entry.task.ctx.pc)
    if here is None:
        raise DebugError("no_line_info", f"no source line for pc 0x{entry.task.ctx.pc:04X}")
    if mode == "out":
        op, leaving = yield from _out(gw, pid)
        return (yield from gw.start_step(pid, "step_out", op, leaving=leaving))
    return (yield from gw.start_step(pid, "step_line", _lines(gw, pid, (here.file, here.line),
                                                             mode == "into")))


def _out(gw: Gateway, pid: int) -> Steps:
    """The step.out generator and the function it leaves (checked now: outermost_frame
    is an error reply)."""
    entry = yield from gw.view(pid)
    found = yield from gw.computed(pid, lambda: stack.return_address(entry.task.ctx, entry.code))
    if found is None:
        raise DebugError("outermost_frame", f"task {pid} is in its outermost frame (or its "
                         "frame cannot be located): there is no caller to return to")
    ret, frame = found
    function = entry.code.function_at(entry.task.ctx.pc)
    leaving = function.name if function is not None else None
    return _run_to_return(gw, pid, ret, lambda sp: sp > frame, leaving), leaving


def _over_call(gw: Gateway, pid: int, pc: int, sp: int) -> Steps:
    return (yield from _run_to_return(gw, pid, pc + 4, lambda now: now >= sp))


def _run_to_return(gw: Gateway, pid: int, ret: int, arrived,
                   leaving: str | None = None) -> Steps:
    """Run the task until it stops at `ret` with `arrived(SP)`; the step's result, with
    what the function it left (`leaving`) returned, as `hsx execd` says it."""
    stop = yield from _run_until(gw, pid, ret, arrived)
    if stop is None:
        return None
    returned = None
    if leaving is not None:
        yield from gw.view(pid)
        returned = yield from gw.computed(pid, lambda: gw.inspector.returned(pid, leaving))
    return gw.step_ended(pid, {"returned": returned} if returned is not None else {})


def _run_until(gw: Gateway, pid: int, addr: int, arrived) -> Steps:
    """Resume with a breakpoint of the step's at `addr` until the task stops there with
    `arrived(SP)`; returns that stop, or None when it stopped for another reason."""
    bp = yield from gw.plant(pid, addr)
    try:
        while True:
            yield ("resume", {"pid": pid})
            stop = yield WAIT
            if stop.get("reason") != "breakpoint" or stop.get("breakpoint_id") != bp:
                return None
            entry = yield from gw.view(pid)
            if arrived(entry.task.ctx.regs[SP]):
                return stop
    finally:
        yield from gw.unplant(pid, bp)


def _lines(gw: Gateway, pid: int, here: tuple[str, int], into: bool) -> Steps:
    entry = yield from gw.view(pid)
    code, table = entry.code, entry.table
    frame = (yield from gw.computed(pid, lambda: stack.frame0(entry.task.ctx, code))).entry_sp
    bodies = _bodies(code, table) if into else set()
    user = yield from gw.user_breakpoints(pid)
    for _ in range(MAX_STEPS):
        ctx = (yield from gw.view(pid)).task.ctx
        pc, sp = ctx.pc, ctx.regs[SP]
        function = code.function_at(pc)
        if code.is_call(pc) and into:
            if (yield from gw.instruction_step(pid)):
                return None
            body = _body_of(code, bodies, (yield from gw.view(pid)).task.ctx.pc)
            if body is not None:                      # stop at the callee's first line
                for _ in range(MAX_STEPS):
                    if (yield from gw.view(pid)).task.ctx.pc == body:
                        return gw.step_ended(pid, {})
                    if (yield from gw.instruction_step(pid)):
                        return None
            if (yield from _run_until(gw, pid, pc + 4, lambda now, sp=sp: now >= sp)) is None:
                return None                           # no lines there: run it to its return
        elif code.is_call(pc):
            if (yield from _run_until(gw, pid, pc + 4, lambda now, sp=sp: now >= sp)) is None:
                return None
        elif (yield from gw.instruction_step(pid)):
            return None
        entry = yield from gw.view(pid)
        now = entry.task.ctx.pc
        if now in user:
            return gw.step_ended(pid, {"reason": "breakpoint", "breakpoint_id": user[now]})
        if code.function_at(now) is not function:
            return gw.step_ended(pid, {})             # left the function: in the caller
        line = table.line_for(now)
        if line is not None and (line.file, line.line) != here:
            same = yield from gw.computed(pid, lambda: stack.frame0(entry.task.ctx, code).entry_sp)
            if frame is None or same == frame:
                return gw.step_ended(pid, {})
    return gw.step_ended(pid, {})


def _body_of(code, bodies: set[int], pc: int) -> int | None:
    function = code.function_at(pc)
    found = [b for b in bodies if function is not None and function.start <= b < function.end]
    return min(found) if found else None
