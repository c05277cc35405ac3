"""A task as the executive sees it: a machine context plus scheduling and accounting."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hsx.image.model import HxeImage
from hsx.vm import Context, Fault

from .scheduler import DEFAULT_PRIORITY
from .states import TaskState
from .taskargs import TaskOptions


@dataclass
class MailboxWait:
    """A RECV (or stdin read) that blocked: where the message goes when it arrives."""

    handle: int
    buffer: int
    max_len: int
    info_ptr: int
    deadline: float | None
    descriptor: int | None = None
    stdin: bool = False        # FS READ on fd 0: R0 = bytes read instead of a status


@dataclass
class SendWait:
    """A SEND_WAIT that found the mailbox full: retried whenever a receive makes room."""

    handle: int
    payload: bytes
    flags: int
    channel: int
    deadline: float | None


@dataclass
class SleepWait:
    """A task sleeping until `deadline` (the clock's seconds), for `ms` milliseconds."""

    deadline: float
    ms: int


@dataclass
class CommandWait:
    """A synchronous command call whose handler the debugger stopped: R0/R1 get the
    status and result when the handler returns."""

    ticket: int
    oid: int


@dataclass
class Accounting:
    """What a task did, counted for its summary (`ps`)."""

    turns: int = 0
    waits: int = 0
    wakes: int = 0
    timeouts: int = 0
    sleeps: int = 0
    input_dropped: dict[str, int] = field(default_factory=dict)   # per input queue


@dataclass
class Task:
    """A loaded image running under the executive: its machine context and its
    scheduling state."""

    pid: int
    app_name: str
    base_name: str
    image: HxeImage
    ctx: Context
    state: TaskState | None = None
    priority: int = DEFAULT_PRIORITY
    quantum: int = 1
    wait: MailboxWait | SendWait | SleepWait | CommandWait | None = None
    resume_state: TaskState | None = None      # where `resume` returns a paused task
    handler: Any = None                         # upcall.HandlerCall: running a stopped handler
    step_limit: int | None = None               # ctx.steps at which a counted debug step ends
    turn_left: int = 0                          # of a quantum a run's budget cut short
    exit_status: int | None = None
    fault: Fault | None = None
    source: str | None = None                   # path the image came from, if any
    symbols_path: Path | None = None
    build_flags: tuple[str, ...] = ()           # `hsx cc` options it was built with (.c)
    options: TaskOptions = field(default_factory=TaskOptions)   # what the load asked for
    restarting: bool = False                    # a `restart` of it is building the new image
    restarted_as: int | None = None             # the PID a `restart` replaced it with
    accounting: Accounting = field(default_factory=Accounting)

    @property
    def instructions(self) -> int:
        return self.ctx.steps

    @property
    def ended(self) -> bool:
        return self.state is not None and self.state.ended

    def summary(self) -> dict[str, Any]:
        """The JSON-ready `ps` row."""
        layout = self.ctx.layout
        row: dict[str, Any] = {
            "pid": self.pid, "app_name": self.app_name, "app_name_base": self.base_name,
            "state": self.state.value if self.state else None, "pc": self.ctx.pc,
            "priority": self.priority, "quantum": self.quantum,
            "instructions": self.instructions, "exit_status": self.exit_status,
            "turns": self.accounting.turns, "waits": self.accounting.waits,
            "wakes": self.accounting.wakes, "timeouts": self.accounting.timeouts,
            "sleeps": self.accounting.sleeps,
            "input_dropped": dict(self.accounting.input_dropped),
            "reg_base": layout.reg_base, "stack_base": layout.stack_base,
            "stack_top": layout.stack_top, "sp": self.ctx.regs[15],
        }
        if self.source:
            row["program"] = self.source
        if self.fault is not None:
            row["fault"] = {"kind": self.fault.kind.value, "pc": self.fault.pc,
                            "addr": self.fault.addr, "message": self.fault.message}
        if isinstance(self.wait, MailboxWait):
            row["wait"] = {"kind": "mailbox", "handle": self.wait.handle,
                           "deadline": self.wait.deadline}
        elif isinstance(self.wait, SendWait):
            row["wait"] = {"kind": "mailbox_send", "handle": self.wait.handle,
                           "deadline": self.wait.deadline}
        elif isinstance(self.wait, SleepWait):
            row["wait"] = {"kind": "sleep", "deadline": self.wait.deadline, "ms": self.wait.ms}
        elif isinstance(self.wait, CommandWait):
            row["wait"] = {"kind": "command", "oid": self.wait.oid, "ticket": self.wait.ticket}
        if self.handler is not None:
            row["handler"] = self.handler.summary()
        return row
