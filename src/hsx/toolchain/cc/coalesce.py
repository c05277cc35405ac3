"""Copies between virtual registers that need not be copies, before allocation.

A phi is lowered to copies on the edges into its block (isel/control.py), so a value
carried around a loop lives in two virtual registers: the phi's, live from the loop's
head to its last use, and the new value's, from its definition to the copy at the back
edge.  Allocated apart they take two registers across the loop (and a move every
iteration); when they never hold different values at once they are one register.

`coalesce_copies` merges the two sides of `mov d, s` when neither is live where the
other is defined (the copy itself aside: there they are equal) and their intervals in
layout order overlap or touch (merging far-apart values makes one value of many
ranges, harder to place whole), and both or neither live across a call: a value that
is not would have to be in R6..R13 too, and code that uses none of them needs no frame
(shrinkwrap.py: `fib`'s quick way out keeps its argument in R1).  Values named by debug records (-g) keep their own
registers: their homes are where the debugger looks for them.
"""
from __future__ import annotations

from .mir import MFunction, VReg


def coalesce_copies(mf: MFunction, numbering) -> None:
    """Merge copies in `mf`; `numbering` is the allocator (its `_number` and
    `_liveness`, in regalloc.py)."""
    tracked = {r for regs in mf.debug.get("values", {}).values() for r in regs}
    copies = []
    for block in mf.blocks:
        for inst in block.insts:
            if inst.op == "mov":
                d, s = inst.defs[0], inst.uses[0]
                if isinstance(d, VReg) and isinstance(s, VReg) and d is not s and \
                        d not in tracked and s not in tracked:
                    copies.append((d, s))
    if not copies:
        return
    wanted = {r for pair in copies for r in pair}
    numbering._number()
    live_in, live_out = numbering._liveness(wanted)
    clash: dict[VReg, set] = {v: set() for v in wanted}
    span: dict[VReg, list[int]] = {}
    crossing: set[VReg] = set()        # live across a call: in R6..R13

    def touch(v: VReg, pos: int) -> None:
        s = span.get(v)
        if s is None:
            span[v] = [pos, pos]
        else:
            s[0] = min(s[0], pos)
            s[1] = max(s[1], pos)

    n = 0
    for k, block in enumerate(mf.blocks):
        start, end = numbering.block_bounds[k]
        for v in live_in[k]:
            touch(v, start)
        for v in live_out[k]:
            touch(v, end)
        live = set(live_out[k])               # (only the copies' sides matter)
        positions = range(n, n + len(block.insts))
        n += len(block.insts)
        for pos, inst in zip(reversed(positions), reversed(block.insts)):
            if inst.clobbers:
                crossing.update(live)
            source = inst.uses[0] if inst.op == "mov" else None
            defs = [r for r in inst.defs if isinstance(r, VReg)]
            for j, x in enumerate(defs):
                if x in wanted:
                    touch(x, 2 * pos + 1)
                    # x clashes with what is live here and defined with it, but not
                    # with itself nor (at a copy) with its source -- unless some other
                    # instruction made them clash already
                    mine = clash[x]
                    keep_source = source in mine
                    mine |= live
                    mine.update(d for d in defs if d in wanted)
                    if inst.early and j == 0:
                        # add64/sub64/add64i (the only early defs): the low word is
                        # written before the high words are read
                        highs = inst.uses[1::2] if len(inst.uses) == 4 else inst.uses[1:]
                        mine.update(r for r in highs if r in wanted)
                    mine.discard(x)
                    if not keep_source:
                        mine.discard(source)
            live.difference_update(defs)
            for r in inst.uses:
                if r in wanted:
                    live.add(r)
                    touch(r, 2 * pos)
    # symmetric: x defined where y is live, or y where x is
    for x in wanted:
        for y in clash[x]:
            if y in clash:
                clash[y].add(x)

    rep: dict[VReg, VReg] = {}

    def find(v: VReg) -> VReg:
        while v in rep:
            v = rep[v]
        return v
    members = {v: [v] for v in wanted}
    for d, s in copies:
        a, b = find(d), find(s)
        if a is b or a not in span or b not in span:
            continue
        (a0, a1), (b0, b1) = span[a], span[b]
        if a0 > b1 + 1 or b0 > a1 + 1 or (a in crossing) != (b in crossing) or \
                any(m in clash[a] for m in members[b]):
            continue
        rep[b] = a
        members[a] += members.pop(b)
        clash[a] |= clash[b]
        span[a] = [min(a0, b0), max(a1, b1)]
    if not rep:
        return
    for block in mf.blocks:
        kept = []
        for inst in block.insts:
            inst.defs = [find(r) if r in rep else r for r in inst.defs]
            inst.uses = [find(r) if r in rep else r for r in inst.uses]
            if not (inst.op == "mov" and inst.defs[0] is inst.uses[0] and not tracked):
                kept.append(inst)
        block.insts = kept
