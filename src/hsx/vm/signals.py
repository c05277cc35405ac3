"""Control-flow exceptions raised inside the run loop (internal to `hsx.vm`).

Instruction implementations and translated blocks stay free of bookkeeping: they raise
one of these and `Machine.run` turns it into state changes and a `Stop`. Python 3.11
`try` blocks cost nothing until something is raised, so the hot loop pays nothing.

`remaining` is the budget left when a translated block raises (it has executed part of
itself); single-instruction closures leave it None and the run loop knows the count.

A fault or return stop raised by the second operation of a compact pair comes after
the first operation took effect (a pair is not atomic: docs/machine.md); such an
exception's `undo` takes that effect back, for a caller that runs the pair again
instead of taking the stop (`take_back`).
"""
from __future__ import annotations

from .errors import Fault, FaultKind


class GuestFault(Exception):
    """The instruction at `pc` cannot execute; nothing has been changed (but a pair's
    first operation, see `undo`)."""

    undo = None

    def __init__(self, kind: FaultKind, pc: int | None, addr: int | None, message: str,
                 remaining: int | None = None) -> None:
        super().__init__(message)
        self.kind, self.pc, self.addr, self.message = kind, pc, addr, message
        self.remaining = remaining

    def record(self, pc: int) -> Fault:
        return Fault(self.kind, pc, self.addr, self.message)


class Halt(Exception):
    """The instruction at `pc` retired and asks to stop: `brk` (code) or `returned`."""

    undo = None

    def __init__(self, reason: str, pc: int, next_pc: int, code: int | None = None,
                 remaining: int | None = None) -> None:
        super().__init__(reason)
        self.reason, self.pc, self.next_pc, self.code = reason, pc, next_pc, code
        self.remaining = remaining


class SvcTrap(Exception):
    """An SVC at `pc`: the run loop retires it and calls the SVC handler."""

    def __init__(self, pc: int, module: int, function: int) -> None:
        super().__init__(pc)
        self.pc, self.module, self.function = pc, module, function


class BreakpointHit(Exception):
    """A breakpoint trampoline at `pc` was reached; the instruction has not executed."""

    def __init__(self, pc: int) -> None:
        super().__init__(pc)
        self.pc = pc


def take_back(stop: Exception) -> None:
    """Undo what the instruction raising `stop` did before it (a pair's first operation,
    when its second raised it), so that running it again runs it once."""
    undo = getattr(stop, "undo", None)
    if undo is not None:
        undo()


class Untranslated(Exception):
    """The block table has no entry for this PC yet: translate it and retry."""


class Undecoded(Exception):
    """The dispatch table has no closure for this PC yet: build it and retry (code is
    decoded when it first runs, so a large image costs nothing for code never run)."""


# --- fault constructors shared by the interpreter, the translator and SVC handlers ---

def memory_fault(pc: int | None, addr: int, width: int, mem_size: int,
                 remaining: int | None = None) -> GuestFault:
    if addr < 0x100:
        what = f"{width}-byte access at 0x{addr:08X} hits the null page (0x0000-0x00FF)"
    else:
        what = (f"{width}-byte access at 0x{addr:08X} is outside data memory "
                f"(0x0100-0x{mem_size - 1:X})")
    return GuestFault(FaultKind.MEMORY, pc, addr, what, remaining)


def stack_fault(pc: int, addr: int, stack_base: int, stack_top: int,
                remaining: int | None = None) -> GuestFault:
    """A stack access at `addr` (or SP value) outside [stack_base, stack_top)."""
    if addr < stack_base:
        return GuestFault(FaultKind.STACK_OVERFLOW, pc, addr,
                          f"stack overflow: 0x{addr:08X} is below the stack base "
                          f"0x{stack_base:08X}{_more_stack(stack_base, stack_top)}", remaining)
    return GuestFault(FaultKind.STACK_UNDERFLOW, pc, addr,
                      f"stack underflow: 0x{addr:08X} is above the stack top "
                      f"0x{stack_top:08X}", remaining)


def sp_fault(pc: int, value: int, stack_base: int, stack_top: int,
             remaining: int | None = None) -> GuestFault:
    """An instruction would set R15 (SP) outside [stack_base, stack_top]."""
    overflow = value < stack_base
    hint = _more_stack(stack_base, stack_top) if overflow else ""
    return GuestFault(FaultKind.STACK_OVERFLOW if overflow else FaultKind.STACK_UNDERFLOW, pc,
                      value, f"R15 (SP) = 0x{value:08X} would leave the stack "
                      f"0x{stack_base:08X}..0x{stack_top:08X}{hint}", remaining)


def _more_stack(stack_base: int, stack_top: int) -> str:
    """How to ask for a bigger stack (docs/machine.md, "Stack and memory per program")."""
    return (f" (the stack is {stack_top - stack_base} bytes; ask for more with "
            f"--stack-size N: hsx run, hsx cc, hsx link, or the load's stack_size)")


def pc_fault(pc: int, target: int, code_len: int, remaining: int | None = None) -> GuestFault:
    why = "is not 4-byte aligned" if target & 3 else f"is outside code (0..0x{code_len:X})"
    return GuestFault(FaultKind.PC_OUT_OF_RANGE, pc, target,
                      f"control transfer to 0x{target:08X} {why}", remaining)


def divide_fault(pc: int, remaining: int | None = None) -> GuestFault:
    return GuestFault(FaultKind.DIVIDE_BY_ZERO, pc, None, "division by zero", remaining)


def illegal_fault(pc: int, word: int) -> GuestFault:
    return GuestFault(FaultKind.ILLEGAL_OPCODE, pc, None,
                      f"illegal instruction word 0x{word:08X} (opcode 0x{word >> 24:02X})")


def literal_fault(pc: int, code_len: int) -> GuestFault:
    """LDI32 at `pc` whose literal word lies past the end of the code."""
    return GuestFault(FaultKind.PC_OUT_OF_RANGE, pc, pc + 4,
                      f"LDI32 literal at 0x{pc + 4:X} is past the end of code (0x{code_len:X})")


def off_end_fault(code_len: int) -> GuestFault:
    return GuestFault(FaultKind.PC_OUT_OF_RANGE, code_len, code_len,
                      f"execution ran off the end of the code at 0x{code_len:X}")
