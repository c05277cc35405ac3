"""After register allocation: reloads of spill slots whose value is still in a register.

The allocator spills a value whole (regalloc.py): every use reloads it, every definition
stores it, also when the register it was just stored from or loaded into still holds it
(`ST [R14-44], R0` then `LD R0, [R14-44]`).  `forward_spills` turns such a reload, within
a block, into a copy from that register, or into nothing when it is the same register
(the instruction stays, as a copy to itself, so debug info that names it keeps its place).
"""
from __future__ import annotations

from .mir import MFunction, PReg


def forward_spills(mf: MFunction) -> None:
    for block in mf.blocks:
        held: dict[int, PReg] = {}          # spill slot -> a register holding its value

        def forget(r) -> None:
            for slot in [s for s, reg in held.items() if reg is r]:
                del held[slot]
        for inst in block.insts:
            slot = inst.args[2] if inst.op in ("load", "store") else None
            if slot is not None and getattr(slot, "kind", None) == "spill":
                if inst.op == "store":
                    held[id(slot)] = inst.uses[0]
                    continue
                d, r = inst.defs[0], held.get(id(slot))
                if r is not None:
                    inst.op, inst.uses, inst.args = "mov", [r], ()
                forget(d)
                held[id(slot)] = d
                continue
            if inst.op == "asm":            # inline asm: registers it does not name too
                held.clear()
                continue
            for r in (*inst.defs, *inst.clobbers):
                forget(r)
