"""Public error and fault types of the VM layer.

Two different things can go wrong: the *guest* can do something illegal (a `Fault`,
recorded on its context and reported as a stop; never a host exception), or the *host*
can misuse the Machine API (a `MachineError`, raised to the caller: peek outside memory,
running an ended context, an image that does not fit).
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class MachineError(Exception):
    """The host asked the machine for something impossible (bad address, register, state)."""


class LoadError(MachineError):
    """An image cannot be turned into a context (layout does not fit, bad parameters)."""


class FaultKind(str, Enum):
    """Why a guest instruction could not execute."""

    ILLEGAL_OPCODE = "illegal_opcode"
    MEMORY = "memory"
    STACK_OVERFLOW = "stack_overflow"
    STACK_UNDERFLOW = "stack_underflow"
    DIVIDE_BY_ZERO = "divide_by_zero"
    PC_OUT_OF_RANGE = "pc_out_of_range"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class Fault:
    """What stopped a faulted context: the instruction at `pc` had no effect at all.

    `addr` is the offending data address (memory, stack) or code address (a branch
    target for pc_out_of_range); None when there is none (illegal opcode, divide by zero).
    """

    kind: FaultKind
    pc: int
    addr: int | None
    message: str

    def describe(self) -> str:
        """One line for people: `memory at pc 0x0010 (addr 0x00000004): ...`."""
        where = f"{self.kind.value} at pc 0x{self.pc:04X}"
        if self.addr is not None:
            where += f" (addr 0x{self.addr:08X})"
        return f"{where}: {self.message}"
