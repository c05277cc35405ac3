"""Driving a kernel until its tasks are done: the loop behind `hsx run A.hxe B.hxe`.

With nothing ready the loop waits for the next timer deadline instead of spinning: on a
virtual clock it jumps there, on the real clock it sleeps until then.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable

from .executive import Kernel
from .states import TaskState

BATCH = 20_000


@dataclass(frozen=True)
class Outcome:
    """Why `run_to_completion` returned, and how many instructions ran."""

    reason: str                  # "done", "paused", "deadlock", "max_instructions"
    instructions: int


def run_to_completion(kernel: Kernel, *, max_instructions: int | None = None,
                      sleep: Callable[[float], None] = time.sleep) -> Outcome:
    executed = 0
    jump = getattr(kernel.clock, "advance_to", None)
    while kernel.live_tasks():
        budget = BATCH if max_instructions is None else min(BATCH, max_instructions - executed)
        if budget <= 0:
            return Outcome("max_instructions", executed)
        executed += kernel.run(budget)
        if kernel.runnable():
            continue
        deadline = kernel.next_deadline()
        if deadline is None:
            if not kernel.live_tasks():
                break
            if kernel.has_pending_input():
                sleep(0.01)
                continue
            paused = any(t.state is TaskState.PAUSED for t in kernel.live_tasks())
            return Outcome("paused" if paused else "deadlock", executed)
        if jump is not None:
            jump(deadline)
        else:
            sleep(max(0.0, min(deadline - kernel.clock.now(), 0.1)))
    return Outcome("done", executed)
