"""Register pairs: the operands of the VM's float and 64-bit instructions that are a
64-bit value in `Rn:Rn+1` (docs/isa.md).

Instruction selection names such an operand by the two virtual registers of the value
(`MInst.pairs`); the register allocator keeps two registers that form a pair together
for their whole life (regalloc.py), so a value computed by one such instruction feeds
the next where it is, in any registers, with no copies.  `legalize_pairs` decides which
virtual registers are pairs, in program order: the first instruction that wants
`(lo, hi)` as a pair makes it one; where two words cannot be one (a word already paired
with another, the same register twice, a physical register), they are copied into a
new pair next to the instruction.  It runs before each round of allocation, so spill
reloads (new registers at every use) are paired too.
"""
from __future__ import annotations

from .mir import MFunction, MInst, VReg


def legalize_pairs(mf: MFunction) -> None:
    """Fill `mf.pairs` (low -> high) from the instructions' pair operands, copying
    where needed."""
    partner: dict[VReg, tuple[VReg, VReg]] = {}

    def claim(lo, hi) -> bool:
        if not (isinstance(lo, VReg) and isinstance(hi, VReg)) or lo is hi:
            return False
        p, q = partner.get(lo), partner.get(hi)
        if p is None and q is None:
            partner[lo] = partner[hi] = (lo, hi)
            return True
        return p == (lo, hi) and q == (lo, hi)

    for block in mf.blocks:
        out: list[MInst] = []
        for inst in block.insts:
            after: list[MInst] = []
            copies: dict[tuple, tuple] = {}
            for where, k in inst.pairs:
                regs = inst.uses if where == "u" else inst.defs
                lo, hi = regs[k], regs[k + 1]
                if claim(lo, hi):
                    continue
                fresh = copies.get((where, lo, hi))
                if fresh is None:
                    tiny = any(isinstance(r, VReg) and r.tiny for r in (lo, hi))
                    fresh = copies[(where, lo, hi)] = (mf.vreg(tiny), mf.vreg(tiny))
                    partner[fresh[0]] = partner[fresh[1]] = fresh
                    if where == "u":
                        out += [MInst("mov", [fresh[0]], [lo], loc=inst.loc),
                                MInst("mov", [fresh[1]], [hi], loc=inst.loc)]
                    else:
                        after += [MInst("mov", [lo], [fresh[0]], loc=inst.loc),
                                  MInst("mov", [hi], [fresh[1]], loc=inst.loc)]
                regs[k], regs[k + 1] = fresh
            out.append(inst)
            out.extend(after)
        block.insts = out
    mf.pairs = {lo: hi for lo, hi in partner.values()}
