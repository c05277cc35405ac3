"""Running a command's handler: a function call into another task's code, made by the
executive on behalf of the caller.

The handler runs in its owner's context (its memory, its stack) as if the owner had
called it, with a return address that is not code: the RET to it stops the machine,
and the owner is then put back exactly as it was.  A handler must return within
HANDLER_BUDGET instructions without blocking; anything else fails the call.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from hsx.vm import FaultKind, StopReason

from .registry import CmdStatus

if TYPE_CHECKING:
    from .services import KernelServices
    from .task import Task

HANDLER_BUDGET = 1_000_000
HANDLER_RETURN = 0xFFFFFFFC       # not code, so returning to it stops the machine


def run_handler(kernel: "KernelServices", owner: "Task", handler_addr: int) -> tuple[CmdStatus, int]:
    """(OK, R0 at the handler's return) or (EFAIL, 0)."""
    ctx, regs = owner.ctx, owner.ctx.regs
    saved = (list(regs), ctx.pc, ctx.psw, ctx.state, ctx.fault, ctx.exit_status,
             ctx.skip_breakpoint)
    sp = regs[15] - 4
    if sp < ctx.layout.stack_base:
        return CmdStatus.EFAIL, 0
    ctx.mem[sp:sp + 4] = HANDLER_RETURN.to_bytes(4, "little")
    regs[15], ctx.pc, ctx.skip_breakpoint = sp, handler_addr, None
    caller, kernel.current = kernel.current, owner
    try:
        stop = kernel.machine.run(ctx, HANDLER_BUDGET)
    finally:
        kernel.current = caller
    fault = stop.fault
    returned = (stop.reason is StopReason.FAULT and fault.kind is FaultKind.PC_OUT_OF_RANGE
                and HANDLER_RETURN in (fault.addr, fault.pc))
    result = regs[0]
    if not returned:
        why = fault.describe() if fault else stop.reason.value
        kernel.events.emit("dmesg", owner.pid, {
            "level": "error",
            "message": f"command handler at 0x{handler_addr:04X} did not return: {why}"})
    for index, value in enumerate(saved[0]):
        regs[index] = value
    ctx.pc, ctx.psw, ctx.state, ctx.fault, ctx.exit_status, ctx.skip_breakpoint = saved[1:]
    return (CmdStatus.OK, result) if returned else (CmdStatus.EFAIL, 0)
