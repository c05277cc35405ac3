"""Module 0x06: the executive's services to tasks (sleep, yield, identity, tasks)."""
from __future__ import annotations

import errno
from typing import TYPE_CHECKING

from hsx.isa.opcodes import HSX_ERR_ENOSYS
from hsx.vm import SvcStop

from .memory import read_cstring

if TYPE_CHECKING:
    from hsx.kernel.services import KernelServices
    from hsx.kernel.task import Task

SLEEP_MS, YIELD, GETPID, EXIT, SPAWN, KILL, WAIT, TIME_MS, MEMINFO = range(9)
SLEEP = "sleep"
YIELD_REASON = "yield"


class ExecModule:
    number = 0x06

    def __init__(self, kernel: "KernelServices") -> None:
        self.kernel = kernel

    def call(self, task: "Task", function: int) -> SvcStop | None:
        regs, kernel = task.ctx.regs, self.kernel
        if function == SLEEP_MS:
            ms = regs[0]
            regs[0] = 0
            return SvcStop(SLEEP, detail=ms) if ms else None
        if function == YIELD:
            regs[0] = 0
            return SvcStop(YIELD_REASON)
        if function == GETPID:
            regs[0] = task.pid
        elif function == EXIT:
            return SvcStop.exit(regs[0])
        elif function == SPAWN:
            regs[0] = kernel.spawn_from_sandbox(task, read_cstring(task.ctx, regs[1]).decode(
                "utf-8", "replace")) & 0xFFFFFFFF
        elif function == KILL:
            regs[0] = kernel.kill_from_guest(task, regs[1]) & 0xFFFFFFFF
        elif function == WAIT:
            other = kernel.tasks.get(regs[1])
            if other is None:
                regs[0] = -errno.ESRCH & 0xFFFFFFFF
            elif other.ended:
                regs[0], regs[1] = 0, (other.exit_status or 0) & 0xFFFFFFFF
            else:
                regs[0] = -errno.EAGAIN & 0xFFFFFFFF
        elif function == MEMINFO:
            layout = task.ctx.layout
            regs[0], regs[1] = layout.heap_start, layout.heap_end
            regs[2], regs[3] = layout.stack_base, layout.stack_top
        elif function == TIME_MS:
            regs[0] = int((kernel.clock.now() - kernel.started_at) * 1000) & 0xFFFFFFFF
        else:
            regs[0] = HSX_ERR_ENOSYS
        return None
