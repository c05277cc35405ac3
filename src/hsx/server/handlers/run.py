"""Running by hand (`step`) and the auto clock (`clock.*`).

`step` with a PID is a debugger step of that one task (it runs even when paused, and
executes the instruction under a breakpoint); without a PID it gives the scheduler N
instructions across all ready tasks, which is refused while another session owns a
ready task (it would run too).  Long steps are cut into slices with the loop served
in between, so a `step` of a million instructions does not freeze other clients.
"""
from __future__ import annotations

import asyncio
import functools
from typing import Any

from ..dispatch import Call, Group
from ..views import current_pid

group = Group("run")
MAX_STEP = 1_000_000_000
PID_SLICE = 2_000                # kernel.step goes one instruction at a time


@group.command("step", "clock.step", writes=True)
def step(call: Call) -> Any:
    count = call.int("count", 1, min=1, max=MAX_STEP, aliases=("steps",))
    kernel, clock = call.kernel, call.server.clock
    if call.has("pid"):
        task = call.task()
        call.control(task.pid)
        pid = task.pid
        slice_size = PID_SLICE
        run = functools.partial(kernel.step, pid)
    else:
        for ready in kernel.scheduler.queued():
            call.control(ready)
        pid = None
        slice_size = max(clock.batch, PID_SLICE)
        run = kernel.run
    if count <= slice_size:
        executed = run(count)
        clock.note_manual(executed)
        return _result(call, pid, count, executed)
    return _step_in_slices(call, pid, count, slice_size, run)


async def _step_in_slices(call: Call, pid: int | None, count: int, slice_size: int,
                          run: Any) -> dict[str, Any]:
    executed = 0
    while executed < count and not call.server.closing:
        done = run(min(slice_size, count - executed))
        executed += done
        if not done:
            break
        await asyncio.sleep(0)
    call.server.clock.note_manual(executed)
    return _result(call, pid, count, executed)


def _result(call: Call, pid: int | None, count: int, executed: int) -> dict[str, Any]:
    kernel = call.kernel
    result: dict[str, Any] = {"executed": executed, "requested": count,
                              "current_pid": current_pid(kernel)}
    shown = kernel.tasks.get(pid if pid is not None else result["current_pid"])
    if shown is not None:
        result.update(pid=shown.pid, pc=shown.ctx.pc,
                      state=shown.state.value if shown.state else None,
                      running=bool(shown.state and shown.state.runnable))
    return {"result": result, "clock": call.server.clock.status()}


@group.command("clock.status", "clock")
def clock_status(call: Call) -> dict[str, Any]:
    return {"clock": call.server.clock.status()}


@group.command("clock.start", "clock.run", "start_auto", writes=True)
def clock_start(call: Call) -> dict[str, Any]:
    call.server.clock.start()
    return {"clock": call.server.clock.status()}


@group.command("clock.stop", "clock.halt", "stop_auto", writes=True)
def clock_stop(call: Call) -> dict[str, Any]:
    call.server.clock.stop()
    return {"clock": call.server.clock.status()}


@group.command("clock.rate", writes=True)
def clock_rate(call: Call) -> dict[str, Any]:
    hz = call.number("rate", None)
    call.server.clock.set_rate(hz if hz is not None else call.number("hz"))
    return {"clock": call.server.clock.status()}
