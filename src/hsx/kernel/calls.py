"""Command calls as the executive makes them (a part of `Kernel`): run the handler in
the owner task, and finish calls whose handler a debugger stopped (upcall.py,
docs/debugger.md "Command handlers").  The registry's and upcall.py's modules are
imported by the first call: most programs make none (firstuse.py)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hsx.vm import Stop, StopReason

from .states import Reason, TaskState
from .task import CommandWait, Task

if TYPE_CHECKING:
    from .registry import CmdStatus, Completion


class CommandCalls:
    """Mixed into `Kernel`: uses its tasks, registries, events and state changes."""

    def call_command(self, caller_pid: int, oid: int, token: bytes | None,
                     auth: int | None = None,
                     reply_handle: int | None = None) -> tuple[CmdStatus | None, int]:
        """Call a command: run its handler in the owner task and return (status, result).

        `auth` is the caller's level (an `Auth`; None: PUBLIC).  With `reply_handle`
        (CALL_ASYNC) the result also goes to the caller as a completion message on that
        handle.  Host callers use pid 0.  (None, ticket) when a debugger stopped the
        handler: the call completes when it returns (`command_done`; docs/values.md).
        """
        from .registry import Auth, CmdStatus
        from .upcall import run_handler
        auth = Auth.PUBLIC if auth is None else auth
        ticket = self.commands.begin_call(caller_pid, oid, token, auth, reply_handle)
        if isinstance(ticket, CmdStatus):
            return ticket, 0
        owner = self.tasks.get(ticket.owner_pid)
        if owner is None or owner.ended or owner is self.current or owner.handler is not None:
            done = CmdStatus.EFAIL, 0     # gone, a task calling itself, or busy in a stopped call
        else:
            done = run_handler(self, owner, ticket)
            if done is None:              # a debugger stopped the handler: it finishes later
                return None, ticket.id
        completion = self.commands.complete_call(ticket, *done)
        self._reply(completion)
        return (CmdStatus.OK if reply_handle is not None else completion.status), completion.result

    def finish_handler(self, task: Task, stop: Stop | None) -> None:
        """The handler `task` runs in handler mode returned, faulted, or (`stop` None)
        tried to block: end its call and put the task back (upcall.finish)."""
        from .upcall import finish
        finish(self, task, stop)

    def handler_stopped(self, task: Task, stop: Stop, details: dict[str, Any]) -> None:
        """A debugger stopped the command handler running in `task` (`run_handler`):
        the task is paused there, in handler mode; resuming it runs the handler."""
        why = "brk" if stop.reason is StopReason.BRK else "breakpoint"
        if task.state is not TaskState.PAUSED:
            self._transition(task, Reason.DEBUG_BREAK, pc=stop.pc, why=why)
        task.resume_state = TaskState.READY
        self.events.emit("debug_break", task.pid, {"pc": stop.pc, "reason": why, **details,
                                                   "handler": task.handler.summary()})

    def put_back(self, task: Task, state: TaskState | None,
                 resume_state: TaskState | None) -> None:
        """A stopped handler ended: the task returns to the state it had before the call
        (a task being debugged stays paused, and `resume` returns it there)."""
        before = TaskState.READY if state is TaskState.RUNNING else state
        if task.state is TaskState.PAUSED:
            task.resume_state = resume_state if before is TaskState.PAUSED else before
        elif before is not task.state and before is not TaskState.READY:
            self._transition(task, Reason.HANDLER_RETURNED, before)
            if before is TaskState.PAUSED:
                task.resume_state = resume_state

    def command_done(self, completion: Completion) -> None:
        """A call ended after its caller moved on (a stopped handler returned, its owner
        ended): send an async reply, or give a waiting caller R0/R1 and wake it."""
        self._reply(completion)
        ticket = completion.ticket
        caller = self.tasks.get(ticket.caller_pid)
        wait = caller.wait if caller is not None else None
        if isinstance(wait, CommandWait) and wait.ticket == ticket.id and not caller.ended:
            caller.ctx.regs[0], caller.ctx.regs[1] = int(completion.status), completion.result
            caller.wait = None
            caller.accounting.wakes += 1
            self._wake(caller, Reason.COMMAND_DONE, oid=ticket.oid, status=int(completion.status))

    def _reply(self, completion: Completion) -> None:
        ticket = completion.ticket
        if completion.payload is None or completion.orphaned or ticket.reply_handle is None:
            return
        sent = self.mailboxes.send(ticket.caller_pid, ticket.reply_handle, completion.payload)
        self.deliver_wakes(sent.wakes)
