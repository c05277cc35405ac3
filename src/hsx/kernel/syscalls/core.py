"""Modules 0x00 (core instrumentation) and 0x01 (task exit, UART write)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from hsx.isa.opcodes import HSX_ERR_ENOSYS
from hsx.vm import SvcStop

if TYPE_CHECKING:
    from hsx.kernel.services import KernelServices
    from hsx.kernel.task import Task

CORE_GET_STEPS = 0x00
EXIT = 0x00
UART_WRITE = 0x01


class CoreModule:
    number = 0x00

    def call(self, task: "Task", function: int) -> SvcStop | None:
        regs = task.ctx.regs
        regs[0] = task.ctx.steps & 0xFFFFFFFF if function == CORE_GET_STEPS else HSX_ERR_ENOSYS
        return None


class TaskModule:
    """Exit, and the UART: a UART write is the task's stdout, as on a board."""

    number = 0x01

    def __init__(self, kernel: "KernelServices") -> None:
        self.kernel = kernel

    def call(self, task: "Task", function: int) -> SvcStop | None:
        regs = task.ctx.regs
        if function == EXIT:
            return SvcStop.exit(regs[0])
        if function == UART_WRITE:
            data = task.ctx.guest_read(regs[1], regs[2] & 0xFFFF)
            self.kernel.stdio.write(task, 1, data)
            regs[0] = len(data)
            return None
        regs[0] = HSX_ERR_ENOSYS
        return None
