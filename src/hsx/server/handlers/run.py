"""Running by hand (`step`) and the auto clock (`clock.*`).

`step` with a PID is the debugger's instruction step of that one task (`Debugger.step`:
it pauses the task, executes the instruction under a breakpoint, stops early at the
next breakpoint, a BRK, a fault or a stopping watch, and reports one `debug_break`).
Up to `HOST_STEPS` instructions run on the host before the reply; a longer step runs
in the kernel with every other task (like `resume`, so `pause` interrupts it) and the
reply says it is pending.  Without
a PID it gives the scheduler N instructions across all ready tasks, which is refused
while another session owns a ready task (it would run too).  Those long steps are cut
into slices with the loop served in between, so a `step` of a million instructions
does not freeze other clients.
"""
from __future__ import annotations

import asyncio
from typing import Any

from hsx.kernel.states import TaskState

from ..dispatch import Call, Group
from ..errors import bad_argument
from ..schema import PID, Int, Num, OneOf
from ..views import current_pid

group = Group("run")
MAX_STEP = 1_000_000_000
MAX_TASK_STEP = 2 ** 53 - 1      # no real cap: the largest count every JSON reader keeps exact
MIN_SLICE = 2_000
MIN_RATE, MAX_RATE = 0.01, 1e12  # instructions per second (0: as fast as possible)
_READY, _RUNNING = TaskState.READY, TaskState.RUNNING   # (a class attribute read is slow on 3.11)


@group.command("step", "clock.step", writes=True,
               args={"pid": PID, "count|steps": Int(1, MAX_TASK_STEP)})
def step(call: Call) -> Any:
    kernel, clock = call.kernel, call.server.clock
    if call.field("pid") is not None:
        count = call.field("count") or call.field("steps") or 1    # checked by the schema
        task = call.task()
        call.control(task.pid)
        done = call.server.debugger.step(task.pid, count)
        if "pending" in done:
            return {"result": done, "clock": clock.status()}
        clock.note_manual(done["executed"])
        return _result(call, task.pid, count, done["executed"])
    count = call.int("count", 1, min=1, max=MAX_STEP, aliases=("steps",))
    for ready in kernel.scheduler.queued():
        call.control(ready)
    slice_size = max(clock.batch, MIN_SLICE)
    if count <= slice_size:
        executed = kernel.run(count)
        clock.note_manual(executed)
        return _result(call, None, count, executed)
    return _step_in_slices(call, count, slice_size)


async def _step_in_slices(call: Call, count: int, slice_size: int) -> dict[str, Any]:
    executed = 0
    while executed < count and not call.server.closing:
        done = call.kernel.run(min(slice_size, count - executed))
        executed += done
        if not done:
            break
        await asyncio.sleep(0)
    call.server.clock.note_manual(executed)
    return _result(call, None, count, executed)


def _result(call: Call, pid: int | None, count: int, executed: int) -> dict[str, Any]:
    kernel = call.kernel
    current = current_pid(kernel)
    shown = kernel.tasks.get(current if pid is None else pid)
    if shown is None:
        result: dict[str, Any] = {"executed": executed, "requested": count,
                                  "current_pid": current}
    else:
        state = shown.state
        result = {"executed": executed, "requested": count, "current_pid": current,
                  "pid": shown.pid, "pc": shown.ctx.pc,
                  "state": state._value_ if state else None,    # (.value: a descriptor call)
                  "running": state is _READY or state is _RUNNING}
    return {"result": result, "clock": call.server.clock.status()}


@group.command("clock.status", "clock", args={})
def clock_status(call: Call) -> dict[str, Any]:
    return {"clock": call.server.clock.status()}


@group.command("clock.start", "clock.run", "start_auto", writes=True, args={})
def clock_start(call: Call) -> dict[str, Any]:
    call.server.clock.start()
    return {"clock": call.server.clock.status()}


@group.command("clock.stop", "clock.halt", "stop_auto", writes=True, args={})
def clock_stop(call: Call) -> dict[str, Any]:
    call.server.clock.stop()
    return {"clock": call.server.clock.status()}


@group.command("clock.rate", writes=True,
               args={"rate|hz": OneOf((Int(0, 0), Num(MIN_RATE, MAX_RATE)))})
def clock_rate(call: Call) -> dict[str, Any]:
    hz = call.field("rate") if call.has("rate") else call.field("hz")
    if hz is None:
        raise bad_argument("clock.rate requires 'rate' (instructions per second; 0: no limit)")
    call.server.clock.set_rate(float(hz))
    return {"clock": call.server.clock.status()}
