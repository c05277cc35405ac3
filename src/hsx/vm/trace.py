"""Per-instruction trace records, built only on the traced (slow) path.

The memory access of an instruction is predicted from the registers before it runs
(address and width) and its value read back afterwards: what a load read or a store
wrote is then in memory at that address.
"""
from __future__ import annotations

from dataclasses import dataclass
from itertools import compress
from operator import ne

from hsx.isa import BY_MNEMONIC, Form, Group, Instruction

from .interp import MEMORY_WIDTH

_REGISTERS = range(16)

# Stack traffic of instructions outside the MEMORY group: "write" pushes at SP - 4,
# "read" pops at SP.
_STACK_ACCESS = {"PUSH": "write", "CALL": "write", "LCALL": "write", "CALLR": "write",
                 "POP": "read", "RET": "read"}
assert set(_STACK_ACCESS) <= set(BY_MNEMONIC)


@dataclass(slots=True)
class MemoryAccess:
    op: str                   # "read" | "write"
    addr: int
    width: int
    value: int
    old: int | None = None    # a write: what was there before


@dataclass(slots=True)
class TraceRecord:
    """One retired instruction: registers it changed {n: (old, new)}, PSW around it."""

    pc: int
    word: int
    changed: dict[int, tuple[int, int]]
    psw_before: int
    psw_after: int
    memory: MemoryAccess | None
    steps: int                # the context's retired-instruction count after it


def predict_access(ins: Instruction | None, regs: list[int],
                   stack_top: int) -> tuple[str, int, int] | None:
    """(op, addr, width) of the data access `ins` will make, from the pre-state."""
    if ins is None:
        return None
    name = ins.op.mnemonic
    if ins.op.group is Group.MEMORY:
        op = "write" if ins.op.form is Form.MEM_RS else "read"
        return op, (regs[ins.rs1] + ins.imm) & 0xFFFFFFFF, MEMORY_WIDTH[name]
    kind = _STACK_ACCESS.get(name)
    if kind == "write":
        return kind, regs[15] - 4, 4
    if kind == "read" and not (name == "RET" and regs[15] == stack_top):
        return kind, regs[15], 4
    return None


def old_value(ctx, access: tuple[str, int, int] | None) -> int | None:
    """What a predicted write will overwrite (read before the instruction runs)."""
    if access is None or access[0] != "write":
        return None
    _, addr, width = access
    if addr < 0 or addr + width > len(ctx.mem):
        return None
    return int.from_bytes(ctx.mem[addr:addr + width], "little")


def make_record(ctx, pc: int, before: list[int], psw_before: int,
                access: tuple[str, int, int] | None, old: int | None = None) -> TraceRecord:
    after = ctx.regs.tolist()
    changed = {i: (before[i], after[i]) for i in compress(_REGISTERS, map(ne, before, after))}
    memory = None
    if access is not None:
        op, addr, width = access
        value = int.from_bytes(ctx.mem[addr:addr + width], "little")
        memory = MemoryAccess(op, addr, width, value, old)
    word = int.from_bytes(ctx.image.code[pc:pc + 4], "big")
    return TraceRecord(pc, word, changed, psw_before, ctx.psw, memory, ctx.steps)
