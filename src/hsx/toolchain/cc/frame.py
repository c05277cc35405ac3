"""Frame layout, prologue and epilogue (docs/abi.md, "Frames").

    caller's outgoing arguments   [R14+8], [R14+12], ...
    return PC                     [R14+4]
    caller's R14                  [R14]      <- R14 (8 mod 16)
    saved R6..R13 (those used)    [R14-4], ...
    spill slots and locals        (the most used nearest R14: short offsets; large
                                   objects last)
    outgoing-argument area        [SP], [SP+4], ...  <- SP (16-aligned)

SP is 16-aligned at every call, so a callee's R14 (SP after the return address and the
saved R14) is 8 mod 16, and a slot 16-aligned relative to R14 is 16-aligned in memory.

Code that needs no frame runs without one (shrinkwrap.py decides): a whole function
(`mf.frameless`), or the blocks before `mf.frame_at`, the block that starts with the
prologue; their returns are a plain `RET`.
"""
from __future__ import annotations

from collections import Counter

from .mir import FP, SP, FrameSlot, MFunction, R, load_constant

MAX_ALIGN = 16     # frame slots get up to this alignment; stricter allocas are dynamic
R14_PHASE = 8      # R14 mod 16


def _below(cursor: int, align: int) -> int:
    """The smallest offset >= cursor at which R14 - offset is `align`-aligned."""
    phase = R14_PHASE % align
    return cursor + (phase - cursor) % align


# what calls (SP must then be 16-aligned) and what moves SP after the prologue
CALLING_OPS = frozenset({"call", "callr", "asm"})
SP_MOVING_OPS = frozenset({"dynalloc", "stackrestore", "asm"})


def layout_frame(mf: MFunction) -> None:
    """Give every frame slot its offset below R14 and size the frame.  SP is 16-aligned
    below the frame where the function calls; a function that does not leaves it where
    its slots end (slots are aligned from R14, which is 8 mod 16 all the same)."""
    ops = {inst.op for block in mf.blocks for inst in block.insts}
    uses = Counter(a for block in mf.blocks for inst in block.insts for a in inst.args
                   if isinstance(a, FrameSlot))
    cursor = 4 * len(mf.saved)
    # the most used first, so that most accesses are short (compact pairs reach R14-256);
    # large objects last
    order = sorted(mf.slots, key=lambda s: (s.size > 16, -uses[s], s.size))
    for slot in order:
        slot.offset = cursor = _below(cursor + slot.size, min(slot.align, MAX_ALIGN))
    if ops & CALLING_OPS:
        total = _below(cursor + mf.outgoing, 16)      # SP = R14 - total, 16-aligned
    else:
        total = _below(cursor + mf.outgoing, 4)
    mf.frame_size = total - 4 * len(mf.saved)
    mf.sp_moves = bool(ops & SP_MOVING_OPS)


def prologue(mf: MFunction) -> list[tuple]:
    """The entry sequence, as (mnemonic, operands...) for the emitter."""
    code: list[tuple] = [("PUSH", FP), ("MOV", FP, SP)]
    code += [("PUSH", r) for r in mf.saved]
    if mf.frame_size:
        if mf.frame_size <= 2048:
            code.append(("ADDI", SP, SP, -mf.frame_size))
        else:                                   # R0 is free on entry (not an argument)
            code += [(load_constant(-mf.frame_size), R[0], -mf.frame_size),
                     ("ADD", SP, SP, R[0])]
    return code


def epilogue(mf: MFunction) -> list[tuple]:
    """The return sequence: SP back to the saved registers (where the prologue left it
    already when nothing below them was made or moved), their POPs, R14's, RET."""
    code: list[tuple] = []
    if mf.frame_size or mf.sp_moves:
        code.append(("ADDI", SP, FP, -4 * len(mf.saved)) if mf.saved else ("MOV", SP, FP))
    code += [("POP", r) for r in reversed(mf.saved)]
    code += [("POP", FP), ("RET",)]
    return code
