"""What `Machine.run`/`step` return, and what an SVC handler may ask for."""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any

from .errors import Fault


class StopReason(str, Enum):
    """Why a run ended."""

    BUDGET = "budget"            # executed the whole budget; the context can run on
    EXITED = "exited"            # SVC EXIT retired; `status` holds R0
    RETURNED = "returned"        # RET from the entry frame (SP == stack_top); `status` = R0
    FAULT = "fault"              # an instruction could not execute; see `fault`
    BRK = "brk"                  # a BRK retired; `code` is its 8-bit code
    BREAKPOINT = "breakpoint"    # reached a breakpoint; the instruction has not executed
    SVC = "svc"                  # an SVC handler asked to stop (see `svc`); the SVC retired

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class SvcStop:
    """Returned by an SVC handler to end the current run after the SVC has retired.

    `reason` "exit" ends the context (state exited, exit status `status`). Any other
    reason ("sleep", "wait", "yield", …) is the kernel's business: the context stays
    runnable and `Stop.svc` carries this object back to whoever called `run`.
    """

    reason: str
    status: int | None = None
    detail: Any = None

    EXIT = "exit"

    @classmethod
    def exit(cls, status: int) -> SvcStop:
        return cls(cls.EXIT, status & 0xFFFFFFFF)


@dataclass(slots=True)
class Stop:
    """The result of one `run`/`step` call.

    `executed` counts retired instructions. `pc` is the address of the instruction the
    stop is about: the faulting instruction, the breakpoint, the BRK, the SVC, the RET;
    for a budget stop the next instruction. The context's own PC (where it resumes) is
    `ctx.pc`: after a BRK or SVC that is the following instruction.

    A plain slotted record (not frozen): one is built per `run` call, and with quantum-1
    scheduling that is per instruction, where a frozen dataclass's __init__ costs
    several times more. Treat it as read-only.
    """

    reason: StopReason
    executed: int
    pc: int
    status: int | None = None
    code: int | None = None
    fault: Fault | None = None
    svc: SvcStop | None = None
