"""The opcode table round-trips through encode/decode, and fields are range-checked."""
import pytest
from hypothesis import given, strategies as st

from hsx.isa import BY_MNEMONIC, OPCODES, EncodingError, Form, Instruction, decode, encode, make
from hsx.isa.compact import Pair, pack
from hsx.isa.encoding import FORM_FIELDS, IMM_RANGE, IMM_STEP

registers = st.integers(0, 15)


@st.composite
def instructions(draw):
    op = draw(st.sampled_from(OPCODES))
    used = FORM_FIELDS[op.form]
    fields = {name: (draw(registers.filter(lambda r: r < 15)) if name in op.pairs
                     else draw(registers)) if name in used else 0
              for name in ("rd", "rs1", "rs2")}
    imm = 0
    if "imm" in used:
        lo, hi = IMM_RANGE[op.form]
        step = IMM_STEP.get(op.form, 1)     # (LDIH: a value whose low 12 bits are zero)
        imm = step * draw(st.integers(-(-lo // step), hi // step))
    return Instruction(op, imm=imm, **fields)


def test_a_register_pair_cannot_start_at_r15():
    with pytest.raises(EncodingError, match="R15 cannot start a register pair"):
        make("DADD", 0, 2, 15)
    assert decode(encode(make("DADD", 14, 2, 4))[0]) is not None
    assert decode((0x88 << 24) | (15 << 20)) is None


@given(instructions())
def test_decode_inverts_encode_over_the_whole_table(ins):
    words = encode(ins)
    assert len(words) * 4 == ins.size
    assert decode(words[0], words[1] if len(words) > 1 else 0) == ins


@given(st.integers(0, 0xFFFFFFFF), st.integers(0, 0xFFFFFFFF))
def test_encode_inverts_decode_up_to_unused_fields(word, literal):
    ins = decode(word, literal)
    if isinstance(ins, Pair):    # top bits 11: tests/isa/test_compact.py
        assert decode(pack(ins.first, ins.second)) == ins
        return
    if ins is None:      # an unknown opcode, a register pair starting at R15, not a pair
        if word >> 30 == 0b11:
            return
        op = next((op for op in OPCODES if op.code == word >> 24), None)
        assert op is None or any((word >> shift) & 0xF == 15 for field, shift in
                                 (("rd", 20), ("rs1", 16), ("rs2", 12)) if field in op.pairs)
        return
    again = encode(ins)
    assert decode(again[0], literal) == ins
    # Only bits the form does not use may differ.
    assert (again[0] ^ word) & ~_unused_mask(ins.op.form) & 0xFFFFFFFF == 0


def _unused_mask(form):
    used = FORM_FIELDS[form]
    mask = 0
    if form in (Form.REL24, Form.RD_IMM20, Form.RD_IMMH):    # bits 23..0 (19..0) all used
        return 0
    if "rd" not in used:
        mask |= 0xF << 20
    if "rs1" not in used:
        mask |= 0xF << 16
    if "rs2" not in used:
        mask |= 0xF << 12
    if "imm" not in used or form is Form.RD_IMM32:
        mask |= 0xFFF
    if form is Form.BRK:
        mask |= 0xF00
    return mask


def test_prior_encodings_are_unchanged():
    # Words produced by the prior assembler (reference vm_isa_hxe.md §2, §8).
    assert encode(make("LDI", rd=1, imm=5)) == [0x01100005]
    assert encode(make("RET")) == [0x25000000]
    assert encode(make("BRK")) == [0x7F000000]
    assert encode(make("BRK", imm=5)) == [0x7F000005]
    assert encode(make("JMP", imm=0xA10)) == [0x21000A10]
    assert encode(make("LDI32", rd=13, imm=0xDEADBEEF)) == [0x60D00000, 0xDEADBEEF]
    assert encode(make("PUSH", rs1=7)) == [0x40070000]
    assert encode(make("POP", rd=7)) == [0x41700000]
    assert encode(make("SVC", imm=0x100)) == [0x30000100]
    assert encode(make("CMP", rs1=1, rs2=2)) == [0x20012000]
    assert encode(make("LDI", rd=5, imm=-4)) == [0x01500FFC]


def test_illegal_opcodes_decode_to_none():
    legal = {op.code for op in OPCODES}
    for code in range(256):
        assert (decode(code << 24) is None) == (code not in legal)
    assert decode(0) is None  # .org padding is illegal, as before


@pytest.mark.parametrize("kwargs, message", [
    (dict(mnemonic="LDI", rd=16, imm=0), "R16"),
    (dict(mnemonic="LDI", rd=1, imm=2048), "out of range"),
    (dict(mnemonic="BRK", imm=300), "out of range"),
    (dict(mnemonic="JMP", imm=4096), "out of range"),
    (dict(mnemonic="RET", rd=1), "no rd"),
    (dict(mnemonic="MOV", rd=1, rs1=2, imm=3), "no immediate"),
    (dict(mnemonic="FROB"), "unknown mnemonic"),
])
def test_bad_fields_are_rejected_with_a_reason(kwargs, message):
    with pytest.raises(EncodingError, match=message):
        make(**kwargs)


def test_relative_branch_targets():
    br = make("BR", imm=-2)
    assert br.branch_target(0x100) == 0xF8
    assert make("BEQ", imm=4).branch_target(0x10) == 0x20
    assert make("JMP", imm=0x40).branch_target(0x800) == 0x40
    assert make("CALL", imm=-1).branch_target(0x10) == 0xC
    assert make("CALL", rs1=3, imm=1).branch_target(0x10) is None


def test_table_extensions_do_not_reuse_prior_numbers():
    prior = {0x01, 0x02, 0x03, 0x04, 0x06, 0x07, 0x08, 0x09, *range(0x10, 0x18), *range(0x20, 0x26),
             *range(0x30, 0x36), 0x40, 0x41, *range(0x50, 0x56), 0x60, 0x7F}
    assert {op.code for op in OPCODES if not op.extension} == prior
    assert BY_MNEMONIC["LDI32"].size == 8


def test_one_word_constant_loads():
    """LDI20 holds a signed 20-bit constant and LDIH a value's top 20 bits, each in one
    word; a value either cannot hold is refused with the instruction that can."""
    assert encode(make("LDI20", 1, imm=-524288)) == [0x61180000]
    assert decode(0x612186A0) == make("LDI20", 2, imm=100000)
    assert encode(make("LDIH", 3, imm=0x7FF00000)) == [0x6237FF00]
    assert decode(0x625FFFFF).imm == 0xFFFFF000
    with pytest.raises(EncodingError, match="out of range"):
        make("LDI20", 1, imm=1 << 19)
    with pytest.raises(EncodingError, match="multiples of 0x1000"):
        make("LDIH", 1, imm=0x7FF00001)
