"""SVC dispatch for tasks under the kernel: one module object per SVC module number.

Each module is a small class with `call(task, function) -> SvcStop | None`; the
dispatcher routes by module number and answers ENOSYS for anything unknown.
Register conventions and status codes are listed in docs/syscalls.md.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from hsx.isa.opcodes import HSX_ERR_ENOSYS
from hsx.vm import Context, SvcStop

if TYPE_CHECKING:
    from hsx.kernel.executive import Kernel
    from hsx.kernel.task import Task


PREEMPT = "preempt"           # an SVC made another task ready: end this turn


class SyscallModule(Protocol):
    number: int

    def call(self, task: "Task", function: int) -> SvcStop | None: ...


class Dispatcher:
    """The machine's SVC handler while the kernel runs tasks."""

    def __init__(self, kernel: "Kernel", modules: list[SyscallModule]) -> None:
        self.kernel = kernel
        self.modules = {m.number: m for m in modules}

    def __call__(self, ctx: Context, module: int, function: int) -> SvcStop | None:
        task = self.kernel.current
        handler = self.modules.get(module)
        if task is None or task.ctx is not ctx or handler is None:
            ctx.regs[0] = HSX_ERR_ENOSYS
            return None
        request = handler.call(task, function)
        if request is None and self.kernel.ready_changed:
            return SvcStop(PREEMPT)
        return request
