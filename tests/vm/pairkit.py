"""Random compact pairs for the VM tests (hsx.isa.compact): operations drawn over the
15-bit values that stand for an instruction, pair words, programs of pairs and their
expansion into ordinary instructions, and randprog's programs with pairs mixed in."""
from __future__ import annotations

from hypothesis import strategies as st

from hsx.isa import Instruction, encode, make
from hsx.isa.compact import COMPACT, Layout, expand, pack
from randprog import DATA, program

# Operand bits (9..0) that may be set in each layout; the others must be zero.
_FREE_BITS = {Layout.RR: 0x3FC, Layout.RI5: 0x3DF, Layout.R: 0x3C0, Layout.NONE: 0}
STRAIGHT = [c for c in COMPACT if not c.transfers_control]
TRANSFERS = [c for c in COMPACT if c.transfers_control]
BRK = encode(make("BRK"))[0]


@st.composite
def operation(draw, codes=tuple(STRAIGHT)) -> Instruction:
    """The instruction of a valid 15-bit operation of one of `codes`."""
    c = draw(st.sampled_from(codes))
    bits = draw(st.integers(0, 0x3FF)) & _FREE_BITS.get(c.layout, 0x3FF)
    return expand((c.code << 10) | bits)


@st.composite
def straight_pairs(draw, max_size: int = 10) -> list[tuple[Instruction, Instruction]]:
    """Pairs of operations none of which transfers control."""
    return draw(st.lists(st.tuples(operation(), operation()), min_size=1, max_size=max_size))


def pair_program(pairs) -> list[int]:
    """One pair word per pair, then BRK."""
    return [pack(first, second) for first, second in pairs] + [BRK]


def expanded_program(pairs) -> list[int]:
    """The same operations as ordinary instructions, one word each, then BRK."""
    return [w for first, second in pairs for w in encode(first) + encode(second)] + [BRK]


# Registers that address the data area (so that loads and stores mostly land) or not.
register_values = st.one_of(st.integers(0, 0xFFFFFFFF), st.integers(0, 40),
                            st.integers(0, 24).map(lambda k: DATA + 4 * k))
initial_registers = st.lists(register_values, min_size=15, max_size=15)


def load_pair_state(m, ctx, regs, data) -> None:
    """R0..R14 from `regs`, R14 a frame in the data area; the data area filled."""
    for i, value in enumerate(regs):
        m.write_register(ctx, i, value)
    m.write_register(ctx, 14, DATA + 0x80)
    m.write_memory(ctx, DATA, data)


@st.composite
def mixed_program(draw) -> list[int]:
    """A randprog program (runs, loops, calls, branches) with some of its words replaced
    by pair words, whose second operation may branch (mostly within the program)."""
    words = draw(program())
    for index in draw(st.lists(st.integers(0, len(words) - 1), max_size=len(words))):
        first = draw(operation())
        if draw(st.booleans()):
            c = draw(st.sampled_from(TRANSFERS))
            second = (make("RET") if c.mnemonic == "RET" else
                      make(c.mnemonic, imm=draw(st.integers(-index - 1, len(words) - index))))
        else:
            second = draw(operation())
        words[index] = pack(first, second)
    return words
