"""Stack colouring: allocas whose lifetimes never overlap share one frame slot.

clang marks each local's lifetime with `llvm.lifetime.start`/`end`, and its inliner
relies on the back end to reuse the memory of locals that are never live together:
without it, every function inlined into `main` adds its locals to `main`'s frame, and
a program that runs at -O0 can overflow the stack at -O2.  An alloca's live range is
found per instruction (a forward data flow over the blocks: live after a start, dead
after an end); two allocas conflict when their ranges meet in some block.  Allocas
without a start marker (every one at -O0) are live everywhere and keep their own slot,
and so does every alloca of a function that calls setjmp (as LLVM's StackColoring).
"""
from __future__ import annotations

from .ir import Const, Function, Instr

_START, _END = "llvm.lifetime.start", "llvm.lifetime.end"


def _callee(i: Instr) -> str:
    """The name a direct call calls ("" for anything else)."""
    if i.opcode != "call" or not i.ops or not isinstance(i.ops[-1], Const):
        return ""
    return getattr(i.ops[-1].c, "name", "") or ""


def _marker(i: Instr) -> tuple[str, Instr] | None:
    """(kind, alloca) for a lifetime marker on an alloca."""
    name = _callee(i)
    for kind in (_START, _END):
        if name.startswith(kind):
            ptr = next((a for a in i.ops[:-1] if isinstance(a, Instr)), None)
            if ptr is not None and ptr.opcode == "alloca":
                return kind, ptr
    return None


def live_ranges(fn: Function, allocas: list[Instr]) -> dict[Instr, dict]:
    """For each alloca with start markers: block -> [(first, last)] instruction indices
    where it is live.  Allocas left out are live throughout the function."""
    wanted = set(allocas)
    events: dict[Instr, dict] = {}           # alloca -> block -> [(index, kind)]
    for block in fn.blocks:
        for k, i in enumerate(block.instrs):
            found = _marker(i)
            if found and found[1] in wanted:
                events.setdefault(found[1], {}).setdefault(block, []).append((k, found[0]))
    ranges = {}
    for alloca, by_block in events.items():
        if not any(kind == _START for evs in by_block.values() for _, kind in evs):
            continue
        live_out = _flow(fn, by_block)
        ranges[alloca] = _intervals(fn, by_block, live_out)
    return ranges


def _flow(fn: Function, by_block: dict) -> dict:
    """Live at the end of each block: the last marker decides, else what flows in."""
    live_out = {b: False for b in fn.blocks}
    changed = True
    while changed:
        changed = False
        for block in fn.blocks:
            evs = by_block.get(block)
            if evs:
                out = evs[-1][1] == _START
            else:
                out = any(live_out[p] for p in block.preds)
            if out != live_out[block]:
                live_out[block] = out
                changed = True
    return live_out


def _intervals(fn: Function, by_block: dict, live_out: dict) -> dict:
    spans: dict = {}
    for block in fn.blocks:
        live = any(live_out[p] for p in block.preds)
        begin = 0 if live else None
        out = []
        for k, kind in by_block.get(block, []):
            if kind == _START and begin is None:
                begin = k
            elif kind == _END and begin is not None:
                out.append((begin, k))
                begin = None
        if begin is not None:
            out.append((begin, len(block.instrs)))
        if out:
            spans[block] = out
    return spans


def _overlap(a: dict, b: dict) -> bool:
    for block, spans in a.items():
        for x0, x1 in spans:
            for y0, y1 in b.get(block, ()):
                if x0 <= y1 and y0 <= x1:
                    return True
    return False


def colour(fn: Function, allocas: list[Instr], sizes: dict[Instr, int]) -> list[list[Instr]]:
    """Groups of allocas that may share a slot (largest first, greedy); every alloca is
    in exactly one group."""
    if any("setjmp" in _callee(i) for b in fn.blocks for i in b.instrs):
        return [[a] for a in allocas]      # a longjmp can come back into an ended lifetime
    ranges = live_ranges(fn, allocas)
    groups: list[list[Instr]] = []
    for alloca in sorted(allocas, key=lambda a: -sizes[a]):
        mine = ranges.get(alloca)
        if mine is not None:
            for group in groups:
                if all(g in ranges and not _overlap(mine, ranges[g]) for g in group):
                    group.append(alloca)
                    break
            else:
                groups.append([alloca])
        else:
            groups.append([alloca])
    return groups
