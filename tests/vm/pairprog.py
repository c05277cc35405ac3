"""Random programs of compact pairs (hsx.isa.compact) and ordinary instructions, laid
out twice: as written (a pair is one word) and expanded (each pair's two instructions
as two words), so an engine running pairs can be compared with the reference running
the expansion. A program is a list of units; a branch names the unit it goes to, and
each layout works out its own offset. Units are mapped back from addresses to compare
where the two stopped.

The reference steps an expanded pair as two instructions; `Reference.unit` runs one
unit (both, or the first when it stops) so its state can be compared with one step of
the engine under test."""
from __future__ import annotations

from dataclasses import dataclass

from hypothesis import strategies as st

from hsx.isa import encode, make
from hsx.isa.compact import BY_COMPACT_CODE, HALF_BITS, PAIR_TAG, compact, expand
from randprog import straight

# the operand bits each compact code requires to be zero, found from the reference
RESERVED = {code: sum(1 << bit for bit in range(10) if expand(code << 10 | 1 << bit) is None)
            for code in BY_COMPACT_CODE}
CONTROL = frozenset(code for code, c in BY_COMPACT_CODE.items() if c.transfers_control)
RET_CODE = next(code for code, c in BY_COMPACT_CODE.items() if c.mnemonic == "RET")
BRANCH_CODES = CONTROL - {RET_CODE}


@dataclass(frozen=True)
class Unit:
    """An ordinary instruction, or a pair of two 15-bit operations (`target`: the unit
    a branch in the second goes to)."""

    ins: object = None
    first: int = 0
    second: int = 0
    target: int = 0

    @property
    def is_pair(self) -> bool:
        return self.ins is None


@st.composite
def half(draw, codes):
    """A valid compact operation of one of `codes`: random operand bits, the reserved
    ones cleared; register a (bits 9..6) mostly one of R0..R11 and b (bits 5..2) often
    R12 or R13, randprog's data bases, so programs run a while before a fault."""
    code = draw(st.sampled_from(sorted(codes)))
    a = draw(st.one_of(st.integers(0, 11), st.integers(0, 15)))
    low = draw(st.integers(0, 63))
    if draw(st.booleans()):
        low = low & 3 | draw(st.sampled_from([12, 13])) << 2
    return code << 10 | ((a << 6 | low) & ~RESERVED[code])


FIRSTS = frozenset(BY_COMPACT_CODE) - CONTROL
SECONDS = frozenset(BY_COMPACT_CODE) - {RET_CODE}   # (RET would pop addresses that differ)
COMPARES = frozenset(code for code, c in BY_COMPACT_CODE.items() if c.mnemonic in ("CMP", "CMPI"))
CONDITIONAL = frozenset(code for code in BRANCH_CODES if BY_COMPACT_CODE[code].mnemonic != "BR")


@st.composite
def pair_program(draw, max_units: int = 24):
    """Units of pairs and ordinary straight-line instructions, ending in BRK; some
    pairs a compare and a conditional branch (which the native engine fuses)."""
    count = draw(st.integers(1, max_units))
    units = []
    for _ in range(count):
        kind = draw(st.integers(0, 6))
        if kind == 0:
            units.append(Unit(ins=draw(straight())))
        elif kind == 2:
            units += draw(sum_into_a_pair(count))
        else:
            firsts, seconds = (COMPARES, CONDITIONAL) if kind == 1 else (FIRSTS, SECONDS)
            units.append(Unit(first=draw(half(firsts)), second=draw(half(seconds)),
                              target=draw(st.integers(0, count))))
    return units + [Unit(ins=make("BRK", imm=1))]


@st.composite
def sum_into_a_pair(draw, count: int):
    """An ADD or ADDI whose sum the pair after it takes as the base of its first
    operation's access, or as the left side of its compare (the native engine forwards
    it in a host register); the sum stays near randprog's data base."""
    base = draw(st.sampled_from([12, 13]))
    if draw(st.booleans()):
        adder = make("ADDI", base, base, imm=4 * draw(st.integers(-4, 8)))
    else:
        adder = make("ADD", base, base, draw(st.sampled_from([0, base])))
    kind = draw(st.sampled_from(["LD", "LDB", "ST", "STB", "CMP", "CMPI"]))
    reg = draw(st.integers(0, 11))
    if kind in ("LD", "ST"):
        first = make(kind, reg, base, imm=4 * draw(st.integers(0, 3))) if kind == "LD" \
            else make(kind, rs1=base, rs2=reg, imm=4 * draw(st.integers(0, 3)))
    elif kind in ("LDB", "STB"):
        first = make(kind, reg, base, imm=draw(st.integers(0, 3))) if kind == "LDB" \
            else make(kind, rs1=base, rs2=reg, imm=draw(st.integers(0, 3)))
    elif kind == "CMP":                 # (against itself too: equal, and not less)
        first = make("CMP", rs1=base, rs2=draw(st.sampled_from([reg, base])))
    else:
        first = make("CMPI", rs1=base, imm=draw(st.integers(-32, 31)))
    seconds = CONDITIONAL if kind.startswith("CMP") else SECONDS
    return [Unit(ins=adder), Unit(first=compact(first), second=draw(half(seconds)),
                                  target=draw(st.integers(0, count)))]


def is_branch(half_bits: int) -> bool:
    return half_bits >> 10 in BRANCH_CODES


def pair_word(first: int, second: int) -> int:
    return PAIR_TAG << 30 | first << HALF_BITS | second


def layout(units: list[Unit], expanded: bool) -> tuple[list[int], list[int]]:
    """(code words, the address of each unit and of the end) of one layout."""
    sizes = [(2 if expanded else 1) if u.is_pair else len(encode(u.ins)) for u in units]
    starts = [0]
    for size in sizes:
        starts.append(starts[-1] + size)
    words: list[int] = []
    for i, u in enumerate(units):
        if not u.is_pair:
            words += encode(u.ins)
        elif expanded:
            second = expand(u.second)
            if is_branch(u.second):   # from the second's own word
                second = make(second.op.mnemonic, imm=starts[u.target] - starts[i] - 1)
            words += encode(expand(u.first)) + encode(second)
        else:
            second = u.second
            if is_branch(second):     # from the pair
                second = second & ~0x3FF | (starts[u.target] - starts[i]) & 0x3FF
            words.append(pair_word(u.first, second))
    return words, [4 * s for s in starts]


class Reference:
    """The reference engine running a program's expansion, one unit at a time."""

    def __init__(self, machine, ctx, units: list[Unit]) -> None:
        self.m, self.ctx, self.units = machine, ctx, units
        _, self.addresses = layout(units, expanded=True)
        self.unit_at = {addr: i for i, addr in enumerate(self.addresses)}
        self.unit_at.update({addr + 4: i for i, addr in enumerate(self.addresses[:-1])
                             if units[i].is_pair})     # a pair's second instruction

    def unit(self):
        """Run the unit at pc: its instruction, or both of a pair (the second only when
        the first retired plainly). The last stop."""
        here = self.unit_at[self.ctx.pc]
        stop = self.m.run(self.ctx, 1)
        if here < len(self.units) and self.units[here].is_pair and stop.reason.value == "budget":
            stop = self.m.run(self.ctx, 1)
        return stop


__all__ = ["FIRSTS", "RET_CODE", "Reference", "SECONDS", "Unit", "half", "is_branch",
           "layout", "pair_program", "pair_word"]
