"""Linear-scan register allocation over live intervals.

Liveness is a backward data-flow over the machine CFG; each virtual register gets one
interval (its first to last live position in layout order, holes filled in, so loops
are covered).  Physical registers that instructions name explicitly (call arguments
and results, the return registers, inline asm operands) and those a call clobbers have
short fixed ranges; a virtual register never gets a physical one whose fixed ranges
overlap its interval.  That single rule gives caller-saved correctness across calls
and hazard-free argument set-up.

When registers run out, the interval that is cheapest to spill for the stretch it still
covers is spilled to a frame slot: the loads and stores it would cost (each use and
definition, 8 times over for each loop around it) over the square of its remaining
length, so a value used in a hot loop keeps its register and one used only before and
after it gives its register up.  Each use of a spilled value reloads into a fresh
short ("tiny") register and each definition is stored back, then allocation runs
again; tiny registers are never spilled, so this converges.

The two words of a register pair (pairs.py) are allocated as one interval, the union of
theirs, to two registers `Rn`, `Rn+1` (R0:R1 ... R12:R13), and spilled together.
"""
from __future__ import annotations

import bisect

from .mir import ALLOCATABLE, CALLEE_SAVED, CALLER_SAVED, MFunction, MInst, PReg, R, VReg
from .ir import CompileError
from .coalesce import coalesce_copies
from .cse import local_cse
from .dce import remove_dead_code
from .hoist import hoist_constants
from .pairs import legalize_pairs
from .sink import sink_into_edges
from .spills import forward_spills

MAX_ROUNDS = 32


class _Interval:
    """A virtual register's interval, or a pair's (`hi`: the high word's register)."""

    __slots__ = ("vreg", "start", "end", "preg", "hi")

    def __init__(self, vreg: VReg, start: int, end: int, hi: VReg | None = None) -> None:
        self.vreg = vreg
        self.start = start
        self.end = end
        self.preg: PReg | None = None
        self.hi = hi

    def regs(self) -> list[PReg]:
        return [self.preg] if self.hi is None else [self.preg, R[self.preg.n + 1]]

    def vregs(self) -> list[VReg]:
        return [self.vreg] if self.hi is None else [self.vreg, self.hi]


def allocate(mf: MFunction) -> None:
    """Assign a physical register to every virtual one in `mf` (adding spill code)."""
    sink_into_edges(mf)
    hoist_constants(mf, _Allocator)
    local_cse(mf)
    remove_dead_code(mf)
    coalesce_copies(mf, _Allocator(mf))
    for _ in range(MAX_ROUNDS):
        legalize_pairs(mf)
        spilled = _Allocator(mf).run()
        if not spilled:
            forward_spills(mf)
            return
        _rewrite_spills(mf, spilled)
    raise CompileError("register allocation did not converge", f"in function '{mf.name}'")


class _Allocator:
    def __init__(self, mf: MFunction) -> None:
        self.mf = mf
        self.order: list[MInst] = []
        self.block_bounds: list[tuple[int, int]] = []
        self.fixed: dict[PReg, list[tuple[int, int]]] = {r: [] for r in ALLOCATABLE}
        self.hints: dict[VReg, list] = {}
        self.block_of: list[int] = []               # instruction number -> block index
        self.cost: dict[VReg, int] = {}             # loads and stores a spill would cost

    # -- numbering and liveness ---------------------------------------------------------

    def _number(self) -> None:
        n = 0
        for k, block in enumerate(self.mf.blocks):
            first = n
            for inst in block.insts:
                self.order.append(inst)
                self.block_of.append(k)
                n += 1
            self.block_bounds.append((2 * first, 2 * max(n - 1, first) + 1))

    def _liveness(self, only: set | None = None) -> tuple[list[set], list[set]]:
        """Live-in and live-out sets of the blocks (of the virtual registers `only`)."""
        blocks = self.mf.blocks
        index = {id(b): k for k, b in enumerate(blocks)}
        gen, kill = [], []
        for block in blocks:
            g, k = set(), set()
            for inst in block.insts:
                for r in inst.uses:
                    if isinstance(r, VReg) and r not in k and (only is None or r in only):
                        g.add(r)
                for r in inst.defs:
                    if isinstance(r, VReg) and (only is None or r in only):
                        k.add(r)
            gen.append(g)
            kill.append(k)
        succs = [[index[id(s)] for s in b.succs] for b in blocks]
        live_in = [set() for _ in blocks]
        live_out = [set() for _ in blocks]
        changed = True
        while changed:
            changed = False
            for k in range(len(blocks) - 1, -1, -1):
                out = set()
                for s in succs[k]:
                    out |= live_in[s]
                new_in = gen[k] | (out - kill[k])
                if len(out) != len(live_out[k]) or len(new_in) != len(live_in[k]):
                    live_out[k] = out
                    live_in[k] = new_in
                    changed = True
        return live_in, live_out

    def _loop_weights(self) -> list[int]:
        """A weight per block: 8 to the power of the loops around it (a branch back to
        an earlier block closes a loop over the blocks between, in layout order)."""
        blocks = self.mf.blocks
        index = {id(b): k for k, b in enumerate(blocks)}
        depth = [0] * len(blocks)
        for k, block in enumerate(blocks):
            for s in block.succs:
                head = index[id(s)]
                if head <= k:
                    for j in range(head, k + 1):
                        depth[j] += 1
        return [8 ** min(d, 4) for d in depth]

    def _intervals(self) -> list[_Interval]:
        live_in, live_out = self._liveness()
        spans: dict[VReg, list[int]] = {}
        weights = self._loop_weights()
        cost = self.cost

        def touch(v: VReg, pos: int) -> None:
            span = spans.get(v)
            if span is None:
                spans[v] = [pos, pos]
            else:
                if pos < span[0]:
                    span[0] = pos
                if pos > span[1]:
                    span[1] = pos

        for k, (start, end) in enumerate(self.block_bounds):
            for v in live_in[k]:
                touch(v, start)
            for v in live_out[k]:
                touch(v, end)
        open_fixed: dict[PReg, list[int]] = {}
        block_ends = iter(self.block_bounds)
        bound = next(block_ends, (0, -1))
        for n, inst in enumerate(self.order):
            while 2 * n > bound[1]:
                open_fixed.clear()              # physical registers never cross blocks
                bound = next(block_ends, (0, 1 << 60))
            use_pos, def_pos = 2 * n, 2 * n + 1
            weight = weights[self.block_of[n]]
            for r in inst.uses + inst.defs:
                if isinstance(r, VReg):
                    cost[r] = cost.get(r, 0) + weight
            for r in inst.uses:
                if isinstance(r, VReg):
                    touch(r, use_pos)
                elif r in open_fixed:
                    open_fixed[r][1] = use_pos
            for r in inst.defs:
                if isinstance(r, VReg):
                    touch(r, use_pos if inst.early else def_pos)
                    if inst.early:
                        touch(r, def_pos)
                elif r in self.fixed:
                    span = [def_pos, def_pos]
                    self.fixed[r].append(span)
                    open_fixed[r] = span
            for r in inst.clobbers:
                if r not in inst.defs:
                    self.fixed[r].append([def_pos, def_pos])
            if inst.op == "mov":
                d, s = inst.defs[0], inst.uses[0]
                if isinstance(d, VReg):
                    self.hints.setdefault(d, []).append(s)
                if isinstance(s, VReg):
                    self.hints.setdefault(s, []).append(d)
        for r, ranges in self.fixed.items():
            ranges.sort()
            self.fixed[r] = [tuple(x) for x in ranges]
        self._fixed_starts = {r: [a for a, _ in rs] for r, rs in self.fixed.items()}
        self._fixed_max_end = {}
        for r, rs in self.fixed.items():
            ends, best = [], -1
            for _, b in rs:
                best = max(best, b)
                ends.append(best)
            self._fixed_max_end[r] = ends
        return sorted((_Interval(v, s, e) for v, (s, e) in spans.items()),
                      key=lambda iv: (iv.start, iv.vreg.id))

    def _conflicts(self, r: PReg, start: int, end: int) -> bool:
        """Does a fixed range of `r` overlap [start, end]?"""
        starts = self._fixed_starts[r]
        k = bisect.bisect_right(starts, end)       # ranges starting at or before `end`
        return k > 0 and self._fixed_max_end[r][k - 1] >= start

    # -- scan ---------------------------------------------------------------------------

    def run(self) -> set[VReg]:
        self._number()
        intervals = self._intervals()
        active: list[_Interval] = []
        in_use: dict[PReg, _Interval] = {}
        spilled: set[VReg] = set()
        assigned: dict[VReg, PReg] = {}
        used_callee: set[PReg] = set()

        def release(a: _Interval) -> None:
            for r in a.regs():
                del in_use[r]

        for iv in self._units(intervals):
            still = []
            for a in active:
                if a.end < iv.start:
                    release(a)
                else:
                    still.append(a)
            active = still
            if iv.hi is not None:
                preg, victims = self._choose_pair(iv, in_use, assigned, used_callee)
            else:
                preg = self._choose(iv, in_use, assigned, used_callee)
                victims = []
                if preg is None:
                    victim = self._victim(iv, active)
                    victims = [victim] if victim is not None else None
                    preg = victim.preg if victim is not None else None
            if victims is None:
                raise CompileError("register allocation failed: too many values live "
                                   "at one point", f"in function '{self.mf.name}'")
            if victims == [iv]:
                spilled.update(iv.vregs())
                continue
            for victim in victims:
                release(victim)
                spilled.update(victim.vregs())
                active.remove(victim)
                for v in victim.vregs():
                    del assigned[v]
            iv.preg = preg
            for r, v in zip(iv.regs(), iv.vregs()):
                in_use[r] = iv
                assigned[v] = r
                if r in CALLEE_SAVED:
                    used_callee.add(r)
            active.append(iv)
        if spilled:
            return spilled
        self._apply(assigned)
        self.mf.saved = [r for r in CALLEE_SAVED if r in used_callee]
        for iv in intervals:
            iv.preg = assigned[iv.vreg]
        self._record_homes(intervals)
        return set()

    def _units(self, intervals: list[_Interval]) -> list[_Interval]:
        """What the scan allocates: single registers, and each pair as one interval."""
        pairs = self.mf.pairs
        if not pairs:
            return intervals
        his = set(pairs.values())
        by_vreg = {iv.vreg: iv for iv in intervals}
        units = []
        for iv in intervals:
            if iv.vreg in his:
                continue
            hi = pairs.get(iv.vreg)
            if hi is None:
                units.append(iv)
            else:
                other = by_vreg[hi]
                units.append(_Interval(iv.vreg, min(iv.start, other.start),
                                       max(iv.end, other.end), hi))
        units.sort(key=lambda iv: (iv.start, iv.vreg.id))
        return units

    def _choose_pair(self, iv: _Interval, in_use: dict, assigned: dict,
                     used_callee: set) -> tuple[PReg | None, list | None]:
        """(Rn, []) for a pair, or (Rn, the intervals to spill to free Rn:Rn+1), or
        (None, [iv]) to spill the pair itself; (None, None) when nothing can be done."""
        def free(r: PReg) -> bool:
            return r not in in_use and not self._conflicts(r, iv.start, iv.end)

        firsts = []
        for hint_of, shift in ((iv.vreg, 0), (iv.hi, 1)):
            for hint in self.hints.get(hint_of, ()):
                r = hint if isinstance(hint, PReg) else assigned.get(hint)
                if r is not None and r in self.fixed:
                    firsts.append(r.n - shift)

        def cost(n: int) -> tuple:
            pair = (R[n], R[n + 1])
            return (sum(r in CALLEE_SAVED and r not in used_callee for r in pair),
                    sum(r in CALLEE_SAVED for r in pair), n)
        for n in firsts + sorted(range(len(ALLOCATABLE) - 1), key=cost):
            if 0 <= n < len(ALLOCATABLE) - 1 and free(R[n]) and free(R[n + 1]):
                return R[n], []
        best = None                  # the pair whose occupants all end the latest
        for n in range(len(ALLOCATABLE) - 1):
            pair = (R[n], R[n + 1])
            if any(self._conflicts(r, iv.start, iv.end) for r in pair):
                continue
            occupants = list({id(in_use[r]): in_use[r] for r in pair if r in in_use}.values())
            if any(o.vreg.tiny for o in occupants):
                continue
            score = min(o.end for o in occupants)
            if best is None or score > best[0]:
                best = (score, n, occupants)
        if best is None or (not iv.vreg.tiny and iv.end >= best[0]):
            return None, (None if iv.vreg.tiny else [iv])
        return R[best[1]], best[2]

    def _record_homes(self, intervals: list[_Interval]) -> None:
        """-g: the register of each value the debug info names and the instructions
        it holds it over (its whole interval: nothing else gets that register there)."""
        wanted = {r for regs in self.mf.debug.get("values", {}).values() for r in regs}
        if not wanted:
            return
        homes = self.mf.debug.setdefault("homes", {})
        for iv in intervals:
            if iv.vreg in wanted:
                homes[iv.vreg] = (iv.preg.n, self.order[iv.start // 2], iv.start % 2 == 1,
                                  self.order[iv.end // 2])

    def _choose(self, iv: _Interval, in_use: dict, assigned: dict,
                used_callee: set) -> PReg | None:
        def free(r: PReg) -> bool:
            return r not in in_use and not self._conflicts(r, iv.start, iv.end)

        for hint in self.hints.get(iv.vreg, ()):
            r = hint if isinstance(hint, PReg) else assigned.get(hint)
            if r is not None and r in self.fixed and free(r):
                return r
        for r in CALLER_SAVED:
            if free(r):
                return r
        for r in CALLEE_SAVED:
            if r in used_callee and free(r):
                return r
        for r in CALLEE_SAVED:
            if free(r):
                return r
        return None

    def _victim(self, iv: _Interval, active: list[_Interval]) -> _Interval | None:
        """The interval to spill: the cheapest (see the module's docstring) among those
        that could give `iv` a register, or `iv` itself."""
        def score(a: _Interval) -> float:      # cheap to spill over a long stretch
            return sum(self.cost.get(v, 0) for v in a.vregs()) / (a.end - iv.start + 1) ** 2
        best = iv if not iv.vreg.tiny else None
        for a in active:
            if a.vreg.tiny or self._conflicts(a.preg, iv.start, iv.end):
                continue
            if best is None or score(a) < score(best):
                best = a
        return best

    def _apply(self, assigned: dict[VReg, PReg]) -> None:
        for inst in self.order:
            inst.defs = [assigned[r] if isinstance(r, VReg) else r for r in inst.defs]
            inst.uses = [assigned[r] if isinstance(r, VReg) else r for r in inst.uses]


def _rewrite_spills(mf: MFunction, spilled: set[VReg]) -> None:
    slots = {v: mf.slot(4, 4, "spill", name=f"spill{v.id}")
             for v in sorted(spilled, key=lambda v: v.id)}      # reproducible frames
    homes = mf.debug.setdefault("spills", {}) if "values" in mf.debug else None
    for block in mf.blocks:
        out: list[MInst] = []
        for inst in block.insts:
            after: list[MInst] = []
            uses = []
            for r in inst.uses:
                if isinstance(r, VReg) and r in slots:
                    t = mf.vreg(tiny=True)
                    out.append(MInst("load", [t], [], ("LD", 0, slots[r]), loc=inst.loc))
                    uses.append(t)
                else:
                    uses.append(r)
            defs = []
            for r in inst.defs:
                if isinstance(r, VReg) and r in slots:
                    t = mf.vreg(tiny=True)
                    after.append(MInst("store", [], [t], ("ST", 0, slots[r]), loc=inst.loc))
                    defs.append(t)
                    if homes is not None and r not in homes:   # -g: in its slot from here
                        homes[r] = (slots[r], after[-1])
                else:
                    defs.append(r)
            inst.uses = uses
            inst.defs = defs
            out.append(inst)
            out.extend(after)
        block.insts = out
