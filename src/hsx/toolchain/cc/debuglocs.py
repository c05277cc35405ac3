"""Where optimised code keeps a C variable (-g with -O1/-O2): the locations `#dbg_value`
records imply, as ranges of the emitted listing.

clang says "from here on, variable v is IR value %x" (`#dbg_value`); instruction
selection leaves a marker where each record stands.  A record holds from its marker to
the next record of the same variable (in layout order), and there the variable is
wherever %x is: in its argument register until the entry copies it, then in the
register the linear-scan allocator gave it over its whole live interval (nothing else
gets that register there), or, once spilled, in its own frame slot; a constant record
makes it that constant.  Outside all of that the variable is listed with location
`none`: the debugger says it is optimised out there rather than show a stale register.
A record whose DWARF expression computes the variable from the value (`c = b * 3`
kept as `b` and `DW_OP_constu 3, DW_OP_mul, DW_OP_stack_value`) gives the location of
the value plus `compute`, the operations; pieces of variables are not described.
"""
from __future__ import annotations

from dataclasses import dataclass

from .irtext import CFloat, CGlobal, CInt, CNull
from .mir import MFunction
from .ir import Argument, Const, Function
from .naming import symbol_name

VALUE_RECORDS = ("dbg_value", "dbg_assign")


@dataclass(frozen=True)
class Segment:
    lo: int                   # listing line where the location becomes valid
    hi: int                   # listing line where it stops (exclusive)
    location: tuple           # ("register", n), ("registers", (lo, hi)), ("frame", offset)
                              # or ("value", bits)


def value_locals(fn: Function, mf: MFunction, start: int, end: int, skip: set[int],
                 describe) -> list[dict]:
    """Local entries (with "lines": [lo, hi]) for the variables of `fn` that clang
    tracks with `#dbg_value`, except those in `skip` (ids of variables already placed
    in the frame, or of inlined functions).  `describe(var)` gives an entry's name,
    type, file, line and arg."""
    spans = mf.debug.get("spans", {})
    markers = mf.debug.get("markers", {})
    entry = {id(inst) for inst in mf.blocks[0].insts} if mf.blocks else set()
    records: dict[int, list] = {}
    variables = {}
    for k, (kind, value, var, expr, _) in enumerate(fn.debug_records):
        if kind in VALUE_RECORDS and var.kind == "DILocalVariable" and id(var) not in skip:
            marker = markers.get(k)
            if marker not in spans or (isinstance(value, Argument) and id(marker) in entry):
                at = start                     # a parameter: from the function's start
            else:
                at = spans[marker][0]
            variables[id(var)] = var
            records.setdefault(id(var), []).append((at, k, value, expr))
    out = []
    for key, var in variables.items():
        base = {"function": mf.symbol, **describe(var)}
        found = sorted(records[key], key=lambda r: r[:2])
        segments = []
        for n, (lo, _, value, expr) in enumerate(found):
            hi = found[n + 1][0] if n + 1 < len(found) else end
            ops = _computation(expr)
            if lo >= hi or ops is None:
                continue
            constant = _constant(value)
            if constant is not None and not ops:
                segments.append(Segment(lo, hi, ("value", constant)))
                continue
            for seg in _segments(value, mf, start, end):
                plain = not ops or seg.location[0] != "registers"     # computed: one word
                if max(seg.lo, lo) < min(seg.hi, hi) and plain:
                    segments.append(Segment(max(seg.lo, lo), min(seg.hi, hi),
                                            seg.location + ((tuple(ops),) if ops else ())))
        for segment in _latest_wins(segments):
            out.append({**base, "location": _location(segment.location),
                        "lines": [segment.lo, segment.hi]})
        out.append({**base, "location": {"kind": "none"}, "lines": [start, end]})
    return out


# DWARF operations a debugger can apply to one 32-bit value (`hsx.debug.variables`)
ARITHMETIC = {"DW_OP_plus", "DW_OP_minus", "DW_OP_mul", "DW_OP_div", "DW_OP_mod",
              "DW_OP_shl", "DW_OP_shr", "DW_OP_shra", "DW_OP_and", "DW_OP_or", "DW_OP_xor",
              "DW_OP_neg", "DW_OP_not", "DW_OP_dup", "DW_OP_swap", "DW_OP_drop"}
WITH_OPERAND = {"DW_OP_constu", "DW_OP_consts", "DW_OP_plus_uconst"}


def named_whole(fn: Function) -> set[int]:
    """ids of the IR values that a `#dbg_value` makes a variable's whole location (no
    expression): the variable is as wide as the value, so the value must keep its
    width for the debugger to read it (narrow.py)."""
    return {id(value) for kind, value, _, expr, _ in fn.debug_records
            if kind in VALUE_RECORDS and not expr}


def _computation(expr: tuple) -> list | None:
    """[] for a plain location; the operations of a value computed from it (ending in
    DW_OP_stack_value, operands as numbers); None for anything else (pieces, memory)."""
    if not expr:
        return []
    if expr[-1] != "DW_OP_stack_value":
        return None
    ops: list = []
    k = 0
    while k < len(expr) - 1:
        op = expr[k]
        if op in WITH_OPERAND and k + 1 < len(expr) - 1:
            try:
                ops += [op, int(expr[k + 1])]
            except ValueError:
                return None
            k += 2
        elif op in ARITHMETIC:
            ops.append(op)
            k += 1
        else:
            return None
    return ops


def _constant(value) -> int | str | None:
    """The bits of an integer, float or null constant, or the label a global's address
    is (resolved when linked); None for anything else."""
    if not isinstance(value, Const):
        return None
    c = value.c
    if isinstance(c, CInt):
        return c.value
    if isinstance(c, CFloat):
        return c.bits
    if isinstance(c, CGlobal):
        return symbol_name(c.name)
    return 0 if isinstance(c, CNull) else None


def _segments(value, mf: MFunction, start: int, end: int) -> list[Segment]:
    """Where `value` (one IR value, maybe several words) can be read."""
    debug = mf.debug
    words = debug.get("values", {}).get(value)
    if not words:
        return []
    spans = debug.get("spans", {})
    per_word: list[list[Segment]] = []
    arrivals = debug.get("arrivals", {}).get(value) if isinstance(value, Argument) else None
    for k, vreg in enumerate(words):
        found = []
        if arrivals is not None and k < len(arrivals):
            reg, copy = arrivals[k]
            found.append(Segment(start, spans[copy][1], ("register", reg)))
        home = debug.get("homes", {}).get(vreg)
        if home is not None:
            reg, first, after, last = home
            found.append(Segment(spans[first][1] if after else spans[first][0],
                                 spans[last][1], ("register", reg)))
        spill = debug.get("spills", {}).get(vreg)
        if spill is not None:
            slot, store = spill
            found.append(Segment(spans[store][1], end, ("frame", -slot.offset)))
        per_word.append(found)
    if len(per_word) == 1:
        return per_word[0]
    combined = []                     # every word readable at once, all in registers
    for pieces in _product(per_word):
        if all(p.location[0] == "register" for p in pieces):
            lo, hi = max(p.lo for p in pieces), min(p.hi for p in pieces)
            if lo < hi:
                combined.append(Segment(lo, hi, ("registers",
                                                 tuple(p.location[1] for p in pieces))))
    return combined


def _product(lists: list[list]) -> list[tuple]:
    out: list[tuple] = [()]
    for options in lists:
        out = [prefix + (item,) for prefix in out for item in options]
    return out


def _latest_wins(segments: list[Segment]) -> list[Segment]:
    """Non-overlapping segments: where several cover a line, the one that began last."""
    segments = [s for s in segments if s.lo < s.hi]
    cuts = sorted({s.lo for s in segments} | {s.hi for s in segments})
    out: list[Segment] = []
    for lo, hi in zip(cuts, cuts[1:]):
        covering = [s for s in segments if s.lo <= lo and hi <= s.hi]
        if not covering:
            continue
        best = max(covering, key=lambda s: s.lo)
        if out and out[-1].hi == lo and out[-1].location == best.location:
            out[-1] = Segment(out[-1].lo, hi, best.location)
        else:
            out.append(Segment(lo, hi, best.location))
    return out


def _location(location: tuple) -> dict:
    kind, where, *ops = location
    if kind == "register":
        out = {"kind": "register", "reg": where}
    elif kind == "registers":
        out = {"kind": "register", "regs": list(where)}
    elif kind == "value":
        out = {"kind": "value", "symbol" if isinstance(where, str) else "value": where}
    else:
        out = {"kind": "frame", "offset": where}
    if ops:
        out["compute"] = list(ops[0])
    return out
