"""The registers of an outer frame: where R6..R13 of a caller are while it waits.

R6..R13 are callee-saved (docs/abi.md): a function that uses one pushes it in its
prologue and pops it before returning, so a caller's value of such a register is either
in the save slot of the nearest callee that saved it, or — if no callee in between
saved it, and so none changed it — still in the register.  Optimised C keeps values
that live across calls exactly there, so this is what lets an outer frame show its
register variables.  The save slots are read from the code, like the stack walk:
the pushes after a framed prologue (`PUSH R14; MOV R14, R15; PUSH R6; ...`, compact
pairs read as their two operations), or the straight-line pushes and pops of a function
without a frame.  R0..R5 are clobbered by
calls: an outer frame's values there are gone.
"""
from __future__ import annotations

from dataclasses import dataclass

from . import stack
from .code import CodeMap, frame_code_pc

CALLEE_SAVED = range(6, 14)


@dataclass(frozen=True)
class FrameRegs:
    """Frame `index` of a walk: its pc, SP and frame pointer (None: not set up)."""

    index: int
    pc: int
    sp: int
    fp: int | None


def saved_registers(code: CodeMap, frame: FrameRegs) -> dict[int, int] | None:
    """{register: address of its save slot} for what the function running in `frame`
    has saved so far; None when its code cannot be read that way."""
    function = code.function_at(frame_code_pc(frame.pc, frame.index))
    if function is None:
        return None
    if function.framed:
        if frame.fp is None:              # entering (nothing saved yet) or at its RET
            return {}
        saved = {}
        limit = frame.pc if frame.index == 0 else function.end
        for _, ins in code.after_prologue(function, limit):
            if ins.op.mnemonic != "PUSH" or ins.rs1 not in CALLEE_SAVED:
                break
            saved[ins.rs1] = frame.fp - 4 * (len(saved) + 1)
        return saved
    moves = stack.stack_moves(code, function.start, frame.pc)   # frameless: a straight line
    if moves is None:
        return None
    pushes: dict[int, int] = {}
    for ins, delta in moves[:-1]:
        if ins.op.mnemonic == "PUSH" and ins.rs1 in CALLEE_SAVED:
            pushes.setdefault(ins.rs1, delta - 4)
        elif ins.op.mnemonic == "POP":
            pushes.pop(ins.rd, None)
    entry_sp = frame.sp - moves[-1][1]
    return {reg: entry_sp + offset for reg, offset in pushes.items()}


def register_homes(code: CodeMap, inner: list[FrameRegs]) -> tuple[dict[int, int], bool]:
    """Where the frame just outside `inner` (its callees, innermost first) finds its
    callee-saved registers: ({register: save slot address}, complete).  A register
    missing from the map is still live in the machine when `complete`; when a callee's
    saves could not be read, it is unknown."""
    homes: dict[int, int] = {}
    for frame in reversed(inner):            # the nearest callee first
        saved = saved_registers(code, frame)
        if saved is None:
            return homes, False
        for reg, addr in saved.items():
            homes.setdefault(reg, addr)
    return homes, True
