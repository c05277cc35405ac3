"""Frame layout, prologue and epilogue (docs/abi.md, "Frames").

    caller's outgoing arguments   [R14+8], [R14+12], ...
    return PC                     [R14+4]
    caller's R14                  [R14]      <- R14 (8-aligned)
    saved R6..R13 (those used)    [R14-4], ...
    spill slots, then locals      (small objects nearest R14: short offsets)
    outgoing-argument area        [SP], [SP+4], ...  <- SP (8-aligned)
"""
from __future__ import annotations

from .mir import MFunction

MAX_ALIGN = 8      # R14 and SP are 8-aligned; stricter alignments are not honoured


def layout_frame(mf: MFunction) -> None:
    """Give every frame slot its offset below R14 and size the frame."""
    cursor = 4 * len(mf.saved)
    order = sorted(mf.slots, key=lambda s: (s.kind != "spill", s.size > 16, s.size))
    for slot in order:
        align = min(slot.align, MAX_ALIGN)
        cursor = (cursor + slot.size + align - 1) // align * align
        slot.offset = cursor
    total = (cursor + mf.outgoing + 7) // 8 * 8
    mf.frame_size = total - 4 * len(mf.saved)


def prologue(mf: MFunction) -> list[str]:
    lines = ["PUSH R14", "MOV R14, R15"]
    lines += [f"PUSH R{r.n}" for r in mf.saved]
    if mf.frame_size:
        if mf.frame_size <= 2048:
            lines.append(f"ADDI R15, R15, {-mf.frame_size}")
        else:                                   # R0 is free on entry (not an argument)
            lines += [f"LDI32 R0, {-mf.frame_size}", "ADD R15, R15, R0"]
    return lines


def epilogue(mf: MFunction) -> list[str]:
    lines = [f"ADDI R15, R14, {-4 * len(mf.saved)}" if mf.saved else "MOV R15, R14"]
    lines += [f"POP R{r.n}" for r in reversed(mf.saved)]
    lines += ["POP R14", "RET"]
    return lines
