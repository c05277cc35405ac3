"""Constants out of loops, before register allocation.

Instruction selection materialises a constant where it is used (`LDI`/`LDI32`, a
global's address), so a loop loads the same constants again on every iteration:
`composite[j] = 1` in the sieve's inner loop was `LDI32 composite; ADD; LDI 1; STB`
and its test `LDI32 20001; CMP`.  `hoist_constants` moves them to the block before the
loop (once per constant: equal ones become one register) when registers are to spare
there: the loop calls nothing (a constant kept across a call would take one of
R6..R13) and the values live at once in it, counted from the allocator's intervals,
leave room for them.  Innermost loops first; a constant so moved may leave the
enclosing loop too.

Loops are taken from the layout: a branch from block k back to block h <= k makes
blocks h..k a loop when they are entered only at h, from one block outside them (where
the constants go, before its branch).  Not in -g builds: each constant keeps the line
of its statement.
"""
from __future__ import annotations

from .mir import MFunction, VReg

LIMIT = 13          # values live at once in a loop, hoisted constants included
LIMIT_PAIRS = 10    # ... in a loop with register pairs (they need two in a row)


def hoist_constants(mf: MFunction, allocator) -> None:
    """`allocator`: makes a register allocator for `mf` (regalloc.py's `_Allocator`),
    whose intervals measure a loop's pressure."""
    if "values" in mf.debug:
        return
    blocks = mf.blocks
    index = {id(b): k for k, b in enumerate(blocks)}
    preds: dict[int, list[int]] = {k: [] for k in range(len(blocks))}
    loops: dict[int, int] = {}
    for k, b in enumerate(blocks):
        for s in b.succs:
            h = index.get(id(s))
            if h is None:
                return                          # (a branch out of the function?)
            preds[h].append(k)
            if h <= k:
                loops[h] = max(loops.get(h, k), k)
    if not loops:
        return
    defs: dict[VReg, int] = {}
    used_in: dict[VReg, set[int]] = {}
    for k, b in enumerate(blocks):
        for inst in b.insts:
            for r in inst.defs:
                if isinstance(r, VReg):
                    defs[r] = defs.get(r, 0) + 1
            for r in inst.uses:
                if isinstance(r, VReg):
                    used_in.setdefault(r, set()).add(k)
    for h, last in sorted(loops.items(), key=lambda item: item[1] - item[0]):
        inside = range(h, last + 1)
        outside = {p for k in inside for p in preds[k] if not h <= p <= last}
        if len(outside) != 1 or any(p < h or p > last for k in inside if k != h
                                    for p in preds[k]):
            continue
        (pre,) = outside
        code = [i for k in inside for i in blocks[k].insts]
        if any(i.clobbers for i in code):
            continue
        groups: dict[tuple, list] = {}
        for i in code:
            if i.op in ("li", "la") and isinstance(i.defs[0], VReg) and \
                    defs.get(i.defs[0]) == 1 and used_in.get(i.defs[0], set()) <= set(inside):
                groups.setdefault((i.op, i.args), []).append(i)
        if not groups:
            continue
        limit = LIMIT_PAIRS if any(i.pairs for i in code) else LIMIT
        # each constant moved out is one more value live through the whole loop; its
        # own short interval inside is not counted (it would count twice)
        candidates = {i.defs[0] for group in groups.values() for i in group}
        room = limit - _pressure(mf, allocator, h, last, candidates)
        if room <= 0:
            continue
        moved = list(groups.values())[:room]
        gone = {id(i) for group in moved for i in group}
        for k in inside:
            blocks[k].insts = [i for i in blocks[k].insts if id(i) not in gone]
        rename = {}
        for first, *others in moved:
            for i in others:
                rename[i.defs[0]] = first.defs[0]
                used_in.setdefault(first.defs[0], set()).update(used_in.pop(i.defs[0], ()))
        target = blocks[pre].insts
        at = len(target) - 1 if target and target[-1].op in _BRANCHES else len(target)
        target[at:at] = [group[0] for group in moved]
        if rename:
            for k in inside:
                for i in blocks[k].insts:
                    i.uses = [rename.get(r, r) for r in i.uses]
        for group in moved:
            used_in[group[0].defs[0]] = set(inside)   # as far as enclosing loops go


_BRANCHES = frozenset({"br", "cbr", "cbr64", "fcbr", "jmpr", "ret", "trap"})


def _pressure(mf: MFunction, allocator, h: int, last: int, leave_out: set) -> int:
    """The most intervals, but those of the `leave_out` registers, that overlap at one
    point of blocks h..last."""
    alloc = allocator(mf)
    alloc._number()
    lo, hi = alloc.block_bounds[h][0], alloc.block_bounds[last][1]
    events = []
    for iv in alloc._intervals():
        if iv.vreg not in leave_out and iv.end >= lo and iv.start <= hi:
            events.append((max(iv.start, lo), 1))
            events.append((min(iv.end, hi) + 1, -1))
    events.sort()
    best = live = 0
    for _, step in events:
        live += step
        best = max(best, live)
    return best
