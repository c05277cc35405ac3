"""continue, next, stepIn, stepOut, pause, stepBack, reverseContinue.

Each starts the task moving and answers at once; the `stopped` event follows when the
executive's `debug_break` arrives (events.py).  Source-level steps are `step.line`;
`granularity: "instruction"` steps instructions.
"""
from __future__ import annotations

from typing import Any, Awaitable, Callable

from hsx.client import ProtocolError

from ..protocol import DapError
from ..requests import handles

NO_LINES = ("no_line_info", "no_symbols")


async def _run(adapter, args: dict[str, Any],
               action: Callable[[Any, int], Awaitable[Any]]) -> int:
    """Do `action(debuggee, pid)` on the thread the request names."""
    debuggee = adapter.need_debuggee()
    pid = thread_of(adapter, args)
    if pid == debuggee.pid and debuggee.ended:
        adapter.later(lambda: adapter.events.finish({"new_state": "faulted"}))
        return pid
    adapter.handles.reset()
    await debuggee.run(pid, action(debuggee, pid))
    return pid


def thread_of(adapter, args: dict[str, Any]) -> int:
    pid = args.get("threadId", adapter.debuggee.pid)
    if isinstance(pid, bool) or not isinstance(pid, int):
        raise DapError(f"\"threadId\" must be a task's PID, not {pid!r}")
    return pid


def _instructions(args: dict[str, Any]) -> bool:
    return args.get("granularity") == "instruction"


@handles("continue")
async def continue_(adapter, args: dict[str, Any]) -> dict[str, Any]:
    await _run(adapter, args, lambda d, pid: d.request("resume", pid=pid))
    return {"allThreadsContinued": False}


@handles("next")
async def next_(adapter, args: dict[str, Any]) -> None:
    async def step(debuggee, pid: int) -> None:
        if _instructions(args):
            return await debuggee.client.step_over(pid)
        try:
            await debuggee.client.step_line(pid, "over")
        except ProtocolError as error:
            if error.code not in NO_LINES:
                raise
            await debuggee.client.step_over(pid)
    await _run(adapter, args, step)


@handles("stepIn")
async def step_in(adapter, args: dict[str, Any]) -> None:
    async def step(debuggee, pid: int) -> None:
        if _instructions(args):
            return await debuggee.client.step(pid, 1)
        try:
            await debuggee.client.step_line(pid, "into")
        except ProtocolError as error:
            if error.code not in NO_LINES:
                raise
            await debuggee.client.step(pid, 1)
    await _run(adapter, args, step)


@handles("stepOut")
async def step_out(adapter, args: dict[str, Any]) -> None:
    async def step(debuggee, pid: int) -> None:
        try:
            await debuggee.client.step_out(pid)
        except ProtocolError as error:
            if error.code == "outermost_frame":
                raise DapError("this is the outermost frame: there is no caller to "
                               "return to (use continue)") from None
            raise
    await _run(adapter, args, step)


@handles("pause")
async def pause(adapter, args: dict[str, Any]) -> None:
    debuggee = adapter.need_debuggee()
    pid = thread_of(adapter, args)
    debuggee.controlled.add(pid)
    row = await debuggee.task(pid)
    if row["state"] == "paused":              # no state change, so no event: say it here
        adapter.later(lambda: adapter.event("stopped", reason="pause", threadId=pid,
                                            allThreadsStopped=False))
        return
    await debuggee.request("pause", pid=pid)


@handles("stepBack")
async def step_back(adapter, args: dict[str, Any]) -> None:
    unit = "instruction" if _instructions(args) else "line"
    await _run(adapter, args, lambda d, pid: _back(d.client.step_back(pid, unit)))


@handles("reverseContinue")
async def reverse_continue(adapter, args: dict[str, Any]) -> None:
    await _run(adapter, args, lambda d, pid: _back(d.client.continue_back(pid)))


async def _back(call: Awaitable[Any]) -> None:
    try:
        await call
    except ProtocolError as error:
        if error.code == "not_recording":
            raise DapError("stepping back needs the task's history: set \"reverse\": true "
                           "in the launch configuration") from None
        if error.code == "history_start":
            raise DapError("already at the start of the recorded history") from None
        raise
