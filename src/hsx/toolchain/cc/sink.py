"""Computations only the back edge needs, moved onto it, before register allocation.

A loop whose exit test reads the old value of its counter (`j < 19990` after
`j + 10` is computed, as clang leaves an unrolled loop) keeps both values live at the
test, so the counter and its phi cannot share a register and the back edge copies one
into the other every iteration.  When the new value is read only by that copy (on an
edge block of its own: isel/control.py makes one for a branch with phi copies), its
computation moves to the start of the edge block: computed after the test, it and the
phi are never live at once and coalesce.py merges them (`ADDI R0, R0, 10; BR head`).
Only ALU instructions whose operands nothing after them in the block sets again; not
in -g builds (the line of the computation would move).
"""
from __future__ import annotations

from .mir import MFunction, VReg

PURE = frozenset({"alu", "alui"})


def sink_into_edges(mf: MFunction) -> None:
    if "values" in mf.debug:
        return
    preds: dict[int, int] = {}
    uses: dict[VReg, int] = {}
    for block in mf.blocks:
        for s in block.succs:
            preds[id(s)] = preds.get(id(s), 0) + 1
        for inst in block.insts:
            for r in inst.uses:
                if isinstance(r, VReg):
                    uses[r] = uses.get(r, 0) + 1
    for block in mf.blocks:
        if len(block.succs) < 2 or not block.insts:
            continue
        for edge in block.succs:
            code = edge.insts
            if preds.get(id(edge)) != 1 or not code or code[-1].op != "br" or \
                    any(i.op != "mov" for i in code[:-1]):
                continue
            copied = {i.uses[0] for i in code[:-1] if isinstance(i.uses[0], VReg)}
            body = block.insts[:-1]
            moved = []
            for k, inst in enumerate(body):
                d = inst.defs[0] if len(inst.defs) == 1 else None
                if inst.op not in PURE or d not in copied or uses.get(d) != 1:
                    continue
                later = {r for i in body[k + 1:] for r in i.defs}
                if any(r in later for r in inst.uses):
                    continue
                moved.append(inst)
            if moved:
                gone = {id(i) for i in moved}
                block.insts = [i for i in block.insts if id(i) not in gone]
                edge.insts[:0] = moved
