"""Dead code after instruction selection, before register allocation.

A value's words are selected one by one, so a 64-bit shift whose high word nobody
reads, the high word of a pair truncated to 32 bits, a constant kept for a copy that
coalescing removed, still have their instructions; clang's own dead code elimination
ran on the IR, where the value was one.  `remove_dead_code` drops every instruction
without an effect besides its result (an ALU operation that cannot fault, a constant,
an address, a copy, a 0/1 or a selection) whose registers nobody reads, again until
none is left; not with -g, where a variable's value keeps its instructions (as in
cse.py).  Compares are fused into the branch or selection that reads their
flags (emit.py), so no flags are lost with an instruction.
"""
from __future__ import annotations

from .mir import MFunction, VReg

WITHOUT_EFFECT = frozenset({"mov", "li", "la", "alu", "alui", "frameaddr", "setcc",
                            "selcc", "select"})
FAULTING = frozenset({"DIV", "DIVU", "REM", "REMU"})     # divide by zero


def remove_dead_code(mf: MFunction) -> None:
    if "values" in mf.debug:
        return
    readers: dict[VReg, int] = {}
    for block in mf.blocks:
        for inst in block.insts:
            for r in inst.uses:
                if isinstance(r, VReg):
                    readers[r] = readers.get(r, 0) + 1
    changed = True
    while changed:
        changed = False
        for block in mf.blocks:
            kept = []
            for inst in block.insts:
                if _dead(inst, readers):
                    for r in inst.uses:
                        if isinstance(r, VReg):
                            readers[r] -= 1
                    changed = True
                else:
                    kept.append(inst)
            block.insts = kept


def _dead(inst, readers: dict[VReg, int]) -> bool:
    if inst.op not in WITHOUT_EFFECT or inst.clobbers or not inst.defs:
        return False
    if inst.op == "alu" and inst.args and inst.args[0] in FAULTING:
        return False
    return all(isinstance(r, VReg) and not readers.get(r) for r in inst.defs)
