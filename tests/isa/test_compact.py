"""hsx.isa.compact: the compact pair form's encoder, decoder and text, checked against
every 15-bit value and random instructions of the whole table."""
from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, strategies as st

from hsx.isa import (OPCODES, Group, Instruction, Pair, decode, format_instruction,
                     last_operation, make, operations)
from hsx.isa.compact import COMMUTATIVE, COMPACT, HALF_MASK, compact, expand, pack
from hsx.isa.encoding import FORM_FIELDS, IMM_RANGE, IMM_STEP

HALVES = range(1 << 15)
# Every instruction some 15-bit value stands for.
EXPANSIONS = {ins for ins in map(expand, HALVES) if ins is not None}


def test_every_valid_half_round_trips_through_its_instruction():
    valid = 0
    for half in HALVES:
        ins = expand(half)
        if ins is None:
            continue
        valid += 1
        again = compact(ins)
        assert again is not None and expand(again) == ins, (hex(half), ins)
    assert valid > 20_000            # most values are operations (not a vacuous pass)


@st.composite
def instructions(draw):
    """Any instruction of the opcode table, fields in range."""
    op = draw(st.sampled_from(OPCODES))
    used = FORM_FIELDS[op.form]
    fields = {name: (draw(st.integers(0, 14)) if name in op.pairs else draw(st.integers(0, 15)))
              if name in used else 0 for name in ("rd", "rs1", "rs2")}
    imm = 0
    if "imm" in used:
        lo, hi = IMM_RANGE[op.form]
        step = IMM_STEP.get(op.form, 1)
        imm = step * draw(st.one_of(st.integers(-70, 70).filter(lambda v: lo <= v * step <= hi),
                                    st.integers(-(-lo // step), hi // step)))
    return Instruction(op, imm=imm, **fields)


def same_operation(ins: Instruction) -> set[Instruction]:
    """`ins`, and with its sources swapped when that computes the same (ADD R1, R2, R1
    is C.ADD R1, R2: ADD R1, R1, R2)."""
    if ins.op.mnemonic in COMMUTATIVE:
        return {ins, replace(ins, rs1=ins.rs2, rs2=ins.rs1)}
    return {ins}


@given(instructions())
def test_compact_is_none_exactly_outside_the_forms(ins):
    """compact() finds a form for every instruction one stands for, and for no other."""
    found = compact(ins)
    assert (found is not None) == bool(same_operation(ins) & EXPANSIONS), ins
    if found is not None:
        assert expand(found) in same_operation(ins)


@pytest.mark.parametrize("ins", [
    make("ADD", rd=1, rs1=2, rs2=3),            # three registers
    make("SUB", rd=1, rs1=2, rs2=1),            # rd = rs2 of a non-commutative operation
    make("LDI", rd=1, imm=32),                  # past a signed 6-bit immediate
    make("LD", rd=1, rs1=14, imm=6),            # a frame offset not a multiple of 4
    make("LD", rd=1, rs1=3, imm=16),            # a base offset past 3 words
    make("BR", imm=512),                        # past a 10-bit word offset
    make("LDI32", rd=1, imm=5), make("CALL", imm=4), make("SVC", imm=0x100), make("ASR", 1, 1, 2),
])
def test_instructions_outside_the_forms_have_no_compact_encoding(ins):
    assert compact(ins) is None


TRANSFERS = [expand((c.code << 10) | (0 if c.mnemonic == "RET" else 3))
             for c in COMPACT if c.transfers_control]


@pytest.mark.parametrize("first", TRANSFERS, ids=[t.op.mnemonic for t in TRANSFERS])
def test_pack_refuses_a_control_transfer_first(first):
    with pytest.raises(ValueError, match="do not pair"):
        pack(first, make("MOV", rd=1, rs1=2))
    assert decode(pack(make("MOV", rd=1, rs1=2), first)).second == first


def test_pack_refuses_an_instruction_without_a_compact_form():
    with pytest.raises(ValueError, match="do not pair"):
        pack(make("MOV", rd=1, rs1=2), make("ADD", rd=1, rs1=2, rs2=3))


@given(st.integers(0, (1 << 30) - 1))
def test_a_pair_word_decodes_exactly_when_both_halves_do_and_the_first_stays(bits):
    word = (0b11 << 30) | bits
    first, second = expand(bits >> 15), expand(bits & HALF_MASK)
    valid = (first is not None and second is not None
             and first.op.group is not Group.BRANCH)
    pair = decode(word)
    if not valid:
        assert pair is None
        return
    assert pair == Pair(first, second) and pack(first, second) == word
    assert operations(pair) == (first, second) and last_operation(pair) == second


BLT = next(c.code for c in COMPACT if c.mnemonic == "BLT")


@pytest.mark.parametrize("word", [
    0xC0000000,                                          # both halves code 0 (unused)
    0xC0000400,                                          # the first half code 0
    0xFFFFFFFF,                                          # BGEU first
    pack(make("MOV", rd=1, rs1=2), make("RET")) | 1,     # RET with a reserved bit set
    pack(make("MOV", rd=1, rs1=2), make("PUSH", rs1=3)) | 2,
    (0b11 << 30) | (((BLT << 10) | 5) << 15) | (1 << 10),   # a branch first
])
def test_invalid_pair_words_do_not_decode(word):
    assert decode(word) is None


def test_a_pair_is_written_as_its_two_instructions_and_branches_from_its_address():
    pair = decode(pack(make("ADD", rd=1, rs1=1, rs2=2), make("BNE", imm=-5)))
    assert format_instruction(pair, 0x40) == "ADD R1, R1, R2 | BNE 0x002C"
    assert pair.branch_target(0x40) == 0x2C
    pair = decode(pack(make("LD", rd=3, rs1=14, imm=8), make("RET")))
    assert format_instruction(pair, 0) == "LD R3, [R14+8] | RET"
    assert pair.branch_target(0) is None
    assert operations(None) == () and last_operation(None) is None
