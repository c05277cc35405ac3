"""SVC dispatch for tasks under the kernel: one module object per SVC module number.

Each module is a small class with `call(task, function) -> SvcStop | None`; the
dispatcher routes by module number and answers ENOSYS for anything unknown.  Modules
whose code imports much that most programs never use (CAN, values and commands) are
built on a task's first call to them (`on_first_call`, kernel/firstuse.py).  A host
error inside a call (an OSError the module did not map itself) becomes that call's
negative errno in R0, and any other exception -EIO plus a `dmesg` error event: the task
goes on and no other task notices.  Guest faults pass through to the machine.
Register conventions and status codes are listed in docs/syscalls.md.
"""
from __future__ import annotations

import errno
from typing import TYPE_CHECKING, Callable, Protocol

from hsx.isa.opcodes import HSX_ERR_ENOSYS
from hsx.vm import Context, SvcStop
from hsx.vm.signals import GuestFault

if TYPE_CHECKING:
    from hsx.kernel.services import KernelServices
    from hsx.kernel.task import Task


PREEMPT = "preempt"           # an SVC made another task ready: end this turn
COMMAND_WAIT = "command_wait"    # a CALL waits for a handler a debugger stopped (module 0x08)


class SyscallModule(Protocol):
    number: int

    def call(self, task: "Task", function: int) -> SvcStop | None: ...


class Dispatcher:
    """The machine's SVC handler while the kernel runs tasks."""

    def __init__(self, kernel: "KernelServices", modules: list[SyscallModule],
                 on_first_call: dict[int, Callable[[], SyscallModule]] | None = None) -> None:
        self.kernel = kernel
        self.modules = {m.number: m for m in modules}
        self._on_first_call = dict(on_first_call or {})    # module number -> its builder

    def __call__(self, ctx: Context, module: int, function: int) -> SvcStop | None:
        task = self.kernel.current
        handler = self.modules.get(module)
        if handler is None and module in self._on_first_call:
            handler = self.modules[module] = self._on_first_call.pop(module)()
        if task is None or task.ctx is not ctx or handler is None:
            ctx.regs[0] = HSX_ERR_ENOSYS
            return None
        try:
            request = handler.call(task, function)
        except GuestFault:
            raise
        except OSError as error:
            ctx.regs[0] = -(error.errno or errno.EIO) & 0xFFFFFFFF
            return None
        except Exception as error:          # a bug: fail this one call, keep the task
            ctx.regs[0] = -errno.EIO & 0xFFFFFFFF
            self.kernel.events.emit("dmesg", task.pid, {
                "level": "error",
                "message": f"SVC {module:#x}.{function:#x} failed: {type(error).__name__}: "
                           f"{error}"})
            return None
        if request is None and self.kernel.ready_changed:
            return SvcStop(PREEMPT)
        return request
