"""SVC handlers: the pluggable object a machine calls when a guest executes `SVC`.

A handler is any callable `handler(ctx, module, function) -> SvcStop | None`. It runs
after the SVC has retired (ctx.pc already points past it, ctx.steps counts it), may read
and write registers (`ctx.regs`) and guest memory (`ctx.guest_read/guest_write`, which
fault like loads and stores), and returns None to let the guest continue or an
`SvcStop` to end the run (exit, or a kernel-defined reason such as sleeping). A handler
that raises a guest fault must do so before changing anything; the machine then reports
the fault at the SVC and un-retires it.
"""
from __future__ import annotations

import sys
import time
from typing import BinaryIO, Callable, Protocol

from hsx.isa.opcodes import HSX_ERR_ENOSYS

from .context import Context
from .stop import SvcStop

EBADF = 0xFFFFFFF7            # -9

# (module, function) numbers the standalone handler implements.
CORE_GET_STEPS = (0x0, 0x00)
EXIT = (0x1, 0x00)
UART_WRITE = (0x1, 0x01)
FS_WRITE = (0x4, 0x02)
SLEEP_MS = (0x6, 0x00)
MEMINFO = (0x6, 0x08)


class SvcHandler(Protocol):
    def __call__(self, ctx: Context, module: int, function: int) -> SvcStop | None: ...


class StandaloneSvc:
    """The SVCs a single task needs without a kernel (`hsx run FILE`).

    Output goes to the given binary streams, or to the process's stdout/stderr looked
    up at call time (so redirections made after construction are honoured).
    """

    def __init__(self, stdout: BinaryIO | None = None, stderr: BinaryIO | None = None,
                 sleep: Callable[[float], None] = time.sleep) -> None:
        self._streams = {1: stdout, 2: stderr}
        self._sleep = sleep
        self._calls: dict[tuple[int, int], Callable[[Context], SvcStop | None]] = {
            CORE_GET_STEPS: self._get_steps, EXIT: self._exit, UART_WRITE: self._uart_write,
            FS_WRITE: self._fs_write, SLEEP_MS: self._sleep_ms, MEMINFO: self._meminfo,
        }

    def __call__(self, ctx: Context, module: int, function: int) -> SvcStop | None:
        call = self._calls.get((module, function))
        if call is None:
            ctx.regs[0] = HSX_ERR_ENOSYS
            return None
        return call(ctx)

    def _write(self, fd: int, data: bytes) -> None:
        stream = self._streams[fd]
        if stream is None:
            text = sys.stdout if fd == 1 else sys.stderr
            text.flush()                      # keep order with host-side text output
            stream = getattr(text, "buffer", None)
            if stream is None:
                text.write(data.decode("utf-8", "replace"))
                text.flush()
                return
        stream.write(data)
        stream.flush()

    @staticmethod
    def _get_steps(ctx: Context) -> None:
        ctx.regs[0] = ctx.steps & 0xFFFFFFFF

    @staticmethod
    def _exit(ctx: Context) -> SvcStop:
        return SvcStop.exit(ctx.regs[0])

    def _uart_write(self, ctx: Context) -> None:
        R = ctx.regs
        data = ctx.guest_read(R[1], R[2])
        self._write(1, data)
        R[0] = len(data)

    def _fs_write(self, ctx: Context) -> None:
        R = ctx.regs
        fd, ptr, length = R[1], R[2], R[3]
        if fd not in (1, 2):
            R[0] = EBADF
            return
        data = ctx.guest_read(ptr, length)
        self._write(fd, data)
        R[0] = len(data)

    @staticmethod
    def _meminfo(ctx: Context) -> None:
        """The task's layout, for allocators: R0/R1 heap, R2/R3 stack bounds."""
        layout = ctx.layout
        ctx.regs[0], ctx.regs[1] = layout.heap_start, layout.heap_end
        ctx.regs[2], ctx.regs[3] = layout.stack_base, layout.stack_top

    def _sleep_ms(self, ctx: Context) -> None:
        self._sleep(ctx.regs[0] / 1000.0)
        ctx.regs[0] = 0
