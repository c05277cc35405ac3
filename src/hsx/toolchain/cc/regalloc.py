"""Linear-scan register allocation over live intervals.

Liveness is a backward data-flow over the machine CFG; each virtual register gets an
interval of the position ranges where it is live, in layout order, with holes where it
is not (a loop's values are not live in the calls laid out between the loop's entry
and its body), so two values share a register where neither is live at the other's
positions; with -g one range from first to last (a variable's register holds nothing
else meanwhile).  Physical registers that instructions name explicitly (call arguments
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
import functools

from .mir import ALLOCATABLE, CALLEE_SAVED, MFunction, MInst, PReg, R, VReg
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
    """A virtual register's live ranges, or a pair's (`hi`: the high word's register):
    sorted, disjoint [start, end] position ranges; between them it holds nothing, and
    another value may have its register there."""

    __slots__ = ("vreg", "ranges", "start", "end", "preg", "hi", "held", "starts")

    def __init__(self, vreg: VReg, ranges: list, hi: VReg | None = None) -> None:
        self.vreg = vreg
        self.ranges = ranges
        self.start = ranges[0][0]
        self.end = ranges[-1][1]
        self.preg: PReg | None = None
        self.hi = hi
        self.held: list[PReg] = []       # regs() once placed, for the scan's lookups
        self.starts: list[int] | None = None   # the ranges' starts, made when first needed

    def regs(self) -> list[PReg]:
        return [self.preg] if self.hi is None else [self.preg, R[self.preg.n + 1]]

    def vregs(self) -> list[VReg]:
        return [self.vreg] if self.hi is None else [self.vreg, self.hi]

    def covers(self, pos: int) -> bool:
        if len(self.ranges) == 1:
            return self.start <= pos <= self.end
        if self.starts is None:
            self.starts = [r[0] for r in self.ranges]
        k = bisect.bisect_right(self.starts, pos) - 1
        return k >= 0 and self.ranges[k][1] >= pos

    def intersects(self, other: "_Interval") -> bool:
        if self.end < other.start or other.end < self.start:
            return False
        few, many = (self, other) if len(self.ranges) <= len(other.ranges) else (other, self)
        if many.starts is None:
            many.starts = [r[0] for r in many.ranges]
        starts, ranges = many.starts, many.ranges
        for start, end in few.ranges:      # the last of `many` starting at or before end
            k = bisect.bisect_right(starts, end) - 1
            if k >= 0 and ranges[k][1] >= start:
                return True
        return False


def _union(a: list, b: list) -> list:
    """The union of two sorted lists of ranges, sorted, touching ones merged."""
    out: list = []
    for r in sorted(a + b):
        if out and r[0] <= out[-1][1] + 1:
            out[-1][1] = max(out[-1][1], r[1])
        else:
            out.append(list(r))
    return out


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
        self.two_address: dict[VReg, list] = {}     # sources whose register makes a compact form
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
        """Every virtual register's live ranges (built backwards over each block from
        what is live out of it); with -g one range from first to last position, so a
        variable's register holds nothing else in between (_record_homes).  Also the
        fixed ranges of the physical registers, the hints and the spill costs."""
        live_in, live_out = self._liveness()
        # built backwards, so each range found is the earliest yet: kept last (appending
        # is cheap), the lists are reversed at the end
        ranges: dict[VReg, list[list[int]]] = {}
        weights = self._loop_weights()
        cost = self.cost

        def add(v: VReg, start: int, end: int) -> None:
            got = ranges.setdefault(v, [])
            if got and got[-1][0] <= end + 1:
                got[-1][0] = min(got[-1][0], start)
                got[-1][1] = max(got[-1][1], end)
            else:
                got.append([start, end])

        for k in range(len(self.mf.blocks) - 1, -1, -1):
            start, end = self.block_bounds[k]
            live = set(live_out[k])
            for v in live:
                add(v, start, end)
            for n in range(end // 2, start // 2 - 1, -1):
                if n >= len(self.order) or self.block_of[n] != k:
                    continue
                inst = self.order[n]
                use_pos, def_pos = 2 * n, 2 * n + 1
                for r in inst.defs:
                    if isinstance(r, VReg):
                        first = use_pos if inst.early else def_pos
                        if r in live:
                            ranges[r][-1][0] = first
                            live.discard(r)
                        else:
                            add(r, first, def_pos)
                for r in inst.uses:
                    if isinstance(r, VReg) and r not in live:
                        add(r, start, use_pos)
                        live.add(r)
        for rs in ranges.values():
            rs.reverse()
        if "values" in self.mf.debug:
            ranges = {v: [[rs[0][0], rs[-1][1]]] for v, rs in ranges.items()}
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
                if not isinstance(r, VReg) and r in open_fixed:
                    open_fixed[r][1] = use_pos
            for r in inst.defs:
                if not isinstance(r, VReg) and r in self.fixed:
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
            else:
                sources = _two_address_sources(inst)
                if sources:
                    self.two_address.setdefault(inst.defs[0], []).extend(sources)
        for r, fixed in self.fixed.items():
            fixed.sort()
            self.fixed[r] = [tuple(x) for x in fixed]
        self._fixed_starts = {r: [a for a, _ in rs] for r, rs in self.fixed.items()}
        self._fixed_max_end = {}
        for r, rs in self.fixed.items():
            ends, best = [], -1
            for _, b in rs:
                best = max(best, b)
                ends.append(best)
            self._fixed_max_end[r] = ends
        return sorted((_Interval(v, rs) for v, rs in ranges.items()),
                      key=lambda iv: (iv.start, iv.vreg.id))

    def _conflicts(self, r: PReg, iv: _Interval) -> bool:
        """Does a fixed range of `r` overlap one of `iv`'s ranges?"""
        starts, max_end = self._fixed_starts[r], self._fixed_max_end[r]
        for start, end in iv.ranges:
            k = bisect.bisect_right(starts, end)   # fixed ranges starting at or before end
            if k > 0 and max_end[k - 1] >= start:
                return True
        return False

    # -- scan ---------------------------------------------------------------------------

    def run(self) -> set[VReg]:
        """Linear scan with lifetime holes: `active` holds the intervals live at the
        current position, `inactive` those that started and are in a hole; a register
        is free for an interval when no active one holds it, no inactive one holding
        it meets the interval, and no fixed range of it does."""
        self._number()
        intervals = self._intervals()
        active: list[_Interval] = []
        inactive: list[_Interval] = []
        spilled: set[VReg] = set()
        assigned: dict[VReg, PReg] = {}
        used_callee: set[PReg] = set()

        for iv in self._units(intervals):
            pos = iv.start
            still, resting, gone = [], [], []
            for a in active:
                if a.covers(pos):
                    still.append(a)
                elif a.end >= pos:
                    gone.append(a)
            waking = []
            for a in inactive:
                if a.covers(pos):
                    waking.append(a)
                elif a.end >= pos:
                    resting.append(a)
            active, inactive = still + waking, resting + gone

            def occupants(r: PReg) -> list[_Interval]:
                return [a for a in active if r in a.held] + \
                    [a for a in inactive if r in a.held and a.intersects(iv)]
            preg, victims = self._place(iv, occupants, assigned, used_callee)
            if victims is None:
                raise CompileError("register allocation failed: too many values live "
                                   "at one point", f"in function '{self.mf.name}'")
            if victims == [iv]:
                spilled.update(iv.vregs())
                continue
            for victim in victims:
                spilled.update(victim.vregs())
                (active if victim in active else inactive).remove(victim)
                for v in victim.vregs():
                    del assigned[v]
            iv.preg = preg
            iv.held = iv.regs()
            for r, v in zip(iv.held, iv.vregs()):
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
                units.append(_Interval(iv.vreg, _union(iv.ranges, by_vreg[hi].ranges), hi))
        units.sort(key=lambda iv: (iv.start, iv.vreg.id))
        return units

    def _place(self, iv: _Interval, occupants, assigned: dict,
               used_callee: set) -> tuple[PReg | None, list | None]:
        """(R, []) for a free register (the first of two for a pair), or (R, the
        intervals to spill to free it), or (None, [iv]) to spill `iv` itself; (None,
        None) when nothing can be done."""
        width = 1 if iv.hi is None else 2
        last = len(ALLOCATABLE) - width

        def usable(n: int) -> bool:
            return 0 <= n <= last and not any(self._conflicts(R[n + k], iv)
                                              for k in range(width))
        for n in self._preferences(iv, assigned, used_callee):
            if usable(n) and not any(occupants(R[n + k]) for k in range(width)):
                return R[n], []

        def score(a: _Interval) -> float:      # cheap to spill over a long stretch
            return sum(self.cost.get(v, 0) for v in a.vregs()) / (a.end - iv.start + 1) ** 2
        best = (score(iv), None, [iv]) if not iv.vreg.tiny else None
        for n in range(last + 1):
            if not usable(n):
                continue
            found = {id(a): a for k in range(width) for a in occupants(R[n + k])}
            victims = list(found.values())
            if any(a.vreg.tiny for a in victims):
                continue
            total = sum(score(a) for a in victims)
            if best is None or total < best[0]:
                best = (total, R[n], victims)
        return (None, None) if best is None else best[1:]

    def _preferences(self, iv: _Interval, assigned: dict, used_callee: set) -> list[int]:
        """Register numbers to try, best first: what copies to and from it were given,
        then caller-saved ones, callee-saved ones already saved, the rest."""
        first = []
        for hint_of, shift in ((iv.vreg, 0), (iv.hi, 1)) if iv.hi else ((iv.vreg, 0),):
            for hint in self.hints.get(hint_of, ()):
                r = hint if isinstance(hint, PReg) else assigned.get(hint)
                if r is not None and r in self.fixed:
                    first.append(r.n - shift)
        if iv.hi is None:
            for source in self.two_address.get(iv.vreg, ()):
                r = source if isinstance(source, PReg) else assigned.get(source)
                if r is not None and r in self.fixed:
                    first.append(r.n)
        order = _register_order(1 if iv.hi is None else 2, frozenset(used_callee))
        return first + order if first else order

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

    def _apply(self, assigned: dict[VReg, PReg]) -> None:
        for inst in self.order:
            inst.defs = [assigned[r] if isinstance(r, VReg) else r for r in inst.defs]
            inst.uses = [assigned[r] if isinstance(r, VReg) else r for r in inst.uses]


# ALU operations with a two-address compact form (hsx.isa.compact): given the register
# of a source, the destination makes `ADD R1, R1, R2` (C.ADD), which can share a word.
_TWO_ADDRESS_ALU = {"ADD": 2, "AND": 2, "OR": 2, "XOR": 2, "MUL": 2, "SUB": 1, "LSL": 1,
                    "LSR": 1}                     # mnemonic -> sources that may be Rd
_TWO_ADDRESS_IMM = {"ADDI": range(-32, 32), "LSLI": range(32), "LSRI": range(32)}


def _two_address_sources(inst: MInst) -> list:
    """The sources of `inst` whose register, given to its destination, gives it a
    compact form."""
    if len(inst.defs) != 1 or inst.pairs:
        return []
    if inst.op == "alu":
        return list(inst.uses[:_TWO_ADDRESS_ALU.get(inst.args[0], 0)])
    if inst.op == "alui" and inst.args[1] in _TWO_ADDRESS_IMM.get(inst.args[0], ()):
        return inst.uses[:1]
    return []


@functools.lru_cache(maxsize=None)
def _register_order(width: int, used_callee: frozenset) -> list[int]:
    """Register numbers for a value of `width` words, cheapest first: caller-saved ones,
    then callee-saved ones the function saves already, then the rest (callers only read
    the list)."""
    def cost(n: int) -> tuple:
        regs = [R[n + k] for k in range(width) if n + k < len(ALLOCATABLE)]
        return (sum(r in CALLEE_SAVED and r not in used_callee for r in regs),
                sum(r in CALLEE_SAVED for r in regs), n)
    return sorted(range(len(ALLOCATABLE)), key=cost)


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
