"""Running a command's handler: a function call into another task's code, made by the
executive on behalf of the caller.

The handler runs in its owner's context (its memory, its stack) as if the owner had
called it, with a return address that is not code: the RET to it stops the machine,
and the owner is then put back exactly as it was.  Everything goes through the VM's
interface (`Machine.save_context`, `enter_function`, `restore_context`): the executive
never copies registers or writes PC and SP itself.  A handler must return within
HANDLER_BUDGET instructions without blocking; anything else fails the call.

A debugger may stop a handler (a breakpoint or BRK in its code whose stop the
debugger confirms).  Then the call cannot finish now: the owner is paused there in
*handler mode* (`Task.handler`, a `HandlerCall` keeping everything it had before the
call), the caller waits (`waiting_cmd`; an async caller and the host just carry on),
and from then on the owner runs the handler as an ordinary task — resumed, stepped,
stopped again — until the handler returns or faults, when `finish` completes the call
and puts the owner back.  Mailbox wakes and timer expiries that come for the owner
meanwhile are kept and applied after.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from hsx.vm import FaultKind, MachineError, SavedContext, Stop, StopReason

from .registry import CmdStatus
from .registry.model import CallTicket
from .states import TaskState

if TYPE_CHECKING:
    from .services import KernelServices
    from .task import Task

HANDLER_BUDGET = 1_000_000
HANDLER_RETURN = 0xFFFFFFFC       # not code, so returning to it stops the machine


@dataclass
class HandlerCall:
    """A stopped handler's call, and what its owner had before the call."""

    ticket: CallTicket
    saved: SavedContext           # the owner's machine state before the call
    state: TaskState | None
    resume_state: TaskState | None
    wait: Any
    deferred: list = field(default_factory=list)   # mailbox wakes that came meanwhile
    timer_due: bool = False                        # its sleep/receive deadline passed meanwhile

    def summary(self) -> dict[str, Any]:
        t = self.ticket
        return {"oid": t.oid, "ticket": t.id, "caller_pid": t.caller_pid,
                "async_call": t.is_async}


def run_handler(kernel: "KernelServices", owner: "Task",
                ticket: CallTicket) -> tuple[CmdStatus, int] | None:
    """(OK, R0 at the handler's return) or (EFAIL, 0); None when the debugger stopped
    the handler: the owner is then in handler mode and `finish` ends the call."""
    machine, ctx = kernel.machine, owner.ctx
    saved = machine.save_context(ctx)
    try:
        machine.enter_function(ctx, ticket.handler_addr, HANDLER_RETURN)
    except MachineError as error:
        _complain(kernel, owner, ticket, str(error))
        return CmdStatus.EFAIL, 0
    caller, kernel.current = kernel.current, owner
    budget = HANDLER_BUDGET
    try:
        while True:
            stop = machine.run(ctx, budget)
            budget -= stop.executed
            if (stop.reason not in (StopReason.BREAKPOINT, StopReason.BRK) or budget <= 0
                    or kernel.debug_hook is None):
                break
            details = kernel.debug_hook(owner, stop)
            if details is None:
                continue                     # a false condition, a disabled BRK: run on
            owner.handler = HandlerCall(ticket, saved, owner.state, owner.resume_state,
                                        owner.wait)
            owner.wait = None
            kernel.handler_stopped(owner, stop, details)
            return None
    finally:
        kernel.current = caller
        kernel.events.flush_deferred()     # its output, when the host called it
    returned = _returned(stop)
    result = machine.read_register(ctx, 0)
    if not returned:
        _complain(kernel, owner, ticket, _why(stop))
    machine.restore_context(ctx, saved)
    return (CmdStatus.OK, result) if returned else (CmdStatus.EFAIL, 0)


def finish(kernel: "KernelServices", owner: "Task", stop: Stop | None) -> None:
    """The owner in handler mode stopped for good — the handler returned (`stop` is the
    fault at HANDLER_RETURN), faulted, exited or blocked (`stop` None): complete the
    call, put the owner back as it was and wake its caller."""
    call: HandlerCall = owner.handler
    owner.handler = None
    returned = stop is not None and _returned(stop)
    result = kernel.machine.read_register(owner.ctx, 0)
    if not returned:
        _complain(kernel, owner, call.ticket, _why(stop))
    kernel.machine.restore_context(owner.ctx, call.saved)
    owner.wait = call.wait
    kernel.put_back(owner, call.state, call.resume_state)
    completion = kernel.commands.complete_call(
        call.ticket, CmdStatus.OK if returned else CmdStatus.EFAIL, result if returned else 0)
    kernel.command_done(completion)
    kernel.deliver_wakes(call.deferred)
    if call.timer_due:
        kernel.timers.schedule(owner.pid, kernel.clock.now())


def _returned(stop: Stop) -> bool:
    fault = stop.fault
    return (stop.reason is StopReason.FAULT and fault.kind is FaultKind.PC_OUT_OF_RANGE
            and HANDLER_RETURN in (fault.addr, fault.pc))


def _why(stop: Stop | None) -> str:
    if stop is None:
        return "it blocked"
    return stop.fault.describe() if stop.fault else stop.reason.value


def _complain(kernel: "KernelServices", owner: "Task", ticket: CallTicket, why: str) -> None:
    kernel.events.emit("dmesg", owner.pid, {
        "level": "error",
        "message": f"command handler at 0x{ticket.handler_addr:04X} did not return: {why}"})
