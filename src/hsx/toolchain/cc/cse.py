"""The same computation twice in a block, before register allocation.

Each address is computed where it is used, so stores to `composite[i]`, `[i+1]` and
`[i+2]` (offsets folded into the stores) each add the same base and index.
`local_cse` keeps the first of equal pure instructions (ALU operations, addresses) in
a block and lets the later ones' users read its result: one defined once, from
operands not set again in between (a phi's registers are, by the copies on the edges
out of the block), never across a call (the value would have to live in R6..R13), and
not in -g builds (a variable's value keeps its own register).
"""
from __future__ import annotations

from .mir import MFunction, VReg

# (not `li`: a small constant costs what a copy costs, and one constant register shared
# by several 64-bit values could be the high word of only one register pair)
PURE = frozenset({"alu", "alui", "la", "frameaddr"})


def local_cse(mf: MFunction) -> None:
    if "values" in mf.debug:
        return
    defs: dict[VReg, int] = {}
    for block in mf.blocks:
        for inst in block.insts:
            for r in inst.defs:
                if isinstance(r, VReg):
                    defs[r] = defs.get(r, 0) + 1
    same: dict[VReg, VReg] = {}
    for block in mf.blocks:
        seen: dict[tuple, VReg] = {}
        reading: dict[VReg, list[tuple]] = {}    # operand -> the entries that read it
        kept = []
        for inst in block.insts:
            inst.uses = [same.get(r, r) for r in inst.uses]
            if inst.clobbers:
                seen.clear()
            d = inst.defs[0] if len(inst.defs) == 1 else None
            if inst.op in PURE and isinstance(d, VReg) and defs.get(d) == 1 and \
                    not inst.pairs and all(isinstance(u, VReg) for u in inst.uses):
                key = (inst.op, inst.args, *inst.uses)
                first = seen.get(key)
                if first is not None:
                    same[d] = first
                    continue
                seen[key] = d
                for u in inst.uses:
                    reading.setdefault(u, []).append(key)
            else:
                for r in inst.defs:                # a phi's register set again
                    for key in reading.pop(r, ()):
                        seen.pop(key, None)
            kept.append(inst)
        block.insts = kept
    if same:
        for block in mf.blocks:
            for inst in block.insts:
                inst.uses = [same.get(r, r) for r in inst.uses]
