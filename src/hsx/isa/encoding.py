"""Encode and decode instruction words, driven entirely by the opcode table."""
from __future__ import annotations

from dataclasses import dataclass

from .opcodes import BY_CODE, BY_MNEMONIC, Form, Opcode

WORD_MASK = 0xFFFFFFFF

# Which fields each form uses; everything else is written as zero.
FORM_FIELDS: dict[Form, frozenset[str]] = {
    Form.NONE: frozenset(),
    Form.RD_IMM: frozenset({"rd", "imm"}),
    Form.RD_IMM32: frozenset({"rd", "imm"}),
    Form.RD_IMM20: frozenset({"rd", "imm"}),
    Form.RD_IMMH: frozenset({"rd", "imm"}),
    Form.RD_MEM: frozenset({"rd", "rs1", "imm"}),
    Form.MEM_RS: frozenset({"rs1", "rs2", "imm"}),
    Form.RD_RS: frozenset({"rd", "rs1"}),
    Form.RD_RS_RS: frozenset({"rd", "rs1", "rs2"}),
    Form.RD_RS_IMM: frozenset({"rd", "rs1", "imm"}),
    Form.RS_RS: frozenset({"rs1", "rs2"}),
    Form.RS_IMM: frozenset({"rs1", "imm"}),
    Form.RS: frozenset({"rs1"}),
    Form.RD: frozenset({"rd"}),
    Form.ABS12: frozenset({"imm"}),
    Form.CALL12: frozenset({"rs1", "imm"}),
    Form.REL24: frozenset({"imm"}),
    Form.SVC: frozenset({"imm"}),
    Form.BRK: frozenset({"imm"}),
}

# Inclusive range of the `imm` value of each form that has one.
IMM_RANGE: dict[Form, tuple[int, int]] = {
    Form.RD_IMM: (-2048, 2047),
    Form.RD_MEM: (-2048, 2047),
    Form.MEM_RS: (-2048, 2047),
    Form.RD_RS_IMM: (-2048, 2047),
    Form.RS_IMM: (-2048, 2047),
    Form.CALL12: (-2048, 2047),
    Form.ABS12: (0, 4095),
    Form.SVC: (0, 4095),
    Form.BRK: (0, 255),
    Form.REL24: (-(1 << 23), (1 << 23) - 1),
    Form.RD_IMM32: (0, WORD_MASK),
    Form.RD_IMM20: (-(1 << 19), (1 << 19) - 1),
    Form.RD_IMMH: (0, WORD_MASK),
}
HIGH_SHIFT = 12                         # LDIH: bits 19..0 are the value's bits 31..12
# The immediates of a form are multiples of this (of 1 where the form is not here).
IMM_STEP: dict[Form, int] = {Form.RD_IMMH: 1 << HIGH_SHIFT}

_SIGNED12 = {Form.RD_IMM, Form.RD_MEM, Form.MEM_RS, Form.RD_RS_IMM, Form.RS_IMM, Form.CALL12}


class EncodingError(ValueError):
    """An instruction that cannot be encoded (bad register, immediate out of range)."""


@dataclass(frozen=True)
class Instruction:
    """A decoded instruction. `imm` holds the form's immediate as a Python int
    (signed for signed forms, the 32-bit literal for LDI32); unused fields are 0."""

    op: Opcode
    rd: int = 0
    rs1: int = 0
    rs2: int = 0
    imm: int = 0

    @property
    def size(self) -> int:
        return self.op.size

    def branch_target(self, pc: int) -> int | None:
        """Code address this instruction transfers control to, if statically known."""
        form = self.op.form
        if form is Form.ABS12:
            return self.imm
        if form is Form.REL24:
            return (pc + 4 * self.imm) & WORD_MASK
        if form is Form.CALL12 and self.rs1 == 0:
            return (pc + 4 * self.imm) & WORD_MASK
        return None


def make(mnemonic: str, rd: int = 0, rs1: int = 0, rs2: int = 0, imm: int = 0) -> Instruction:
    """Build an instruction by mnemonic, validating fields against its form."""
    try:
        op = BY_MNEMONIC[mnemonic.upper()]
    except KeyError:
        raise EncodingError(f"unknown mnemonic {mnemonic!r}") from None
    ins = Instruction(op, rd, rs1, rs2, imm)
    check(ins)
    return ins


def check(ins: Instruction) -> None:
    """Raise EncodingError unless every field fits and unused fields are zero."""
    used = FORM_FIELDS[ins.op.form]
    for name in ("rd", "rs1", "rs2"):
        value = getattr(ins, name)
        if name in used:
            if not 0 <= value <= 15:
                raise EncodingError(f"{ins.op.mnemonic}: register R{value} does not exist (R0..R15)")
            if name in ins.op.pairs and value == 15:
                raise EncodingError(f"{ins.op.mnemonic}: R15 cannot start a register pair "
                                    "(R0:R1 .. R14:R15)")
        elif value:
            raise EncodingError(f"{ins.op.mnemonic} has no {name} field")
    if "imm" in used:
        lo, hi = IMM_RANGE[ins.op.form]
        if not lo <= ins.imm <= hi:
            raise EncodingError(
                f"{ins.op.mnemonic}: immediate {ins.imm} out of range {lo}..{hi}")
        step = IMM_STEP.get(ins.op.form, 1)
        if ins.imm % step:
            raise EncodingError(f"{ins.op.mnemonic}: immediate 0x{ins.imm:X} is not a multiple "
                                f"of 0x{step:X}; {ins.op.mnemonic} loads multiples of 0x{step:X}")
    elif ins.imm:
        raise EncodingError(f"{ins.op.mnemonic} takes no immediate")


def encode(ins: Instruction) -> list[int]:
    """Instruction -> one or two 32-bit words (LDI32 adds its literal word)."""
    check(ins)
    form = ins.op.form
    word = (ins.op.code << 24) | (ins.rd << 20) | (ins.rs1 << 16) | (ins.rs2 << 12)
    if form is Form.REL24:
        return [(ins.op.code << 24) | (ins.imm & 0xFFFFFF)]
    if form is Form.RD_IMM32:
        return [word, ins.imm & WORD_MASK]
    if form is Form.RD_IMM20:
        return [word | (ins.imm & 0xFFFFF)]
    if form is Form.RD_IMMH:
        return [word | (ins.imm >> HIGH_SHIFT)]
    if "imm" in FORM_FIELDS[form]:
        word |= ins.imm & 0xFFF
    return [word]


def decode(word: int, literal: int | None = 0):
    """One code word -> Instruction, a compact `Pair` (hsx.isa.compact) for a word
    whose top two bits are 11, or None for an illegal instruction (an unknown opcode,
    R15 where a register pair starts, a pair that is not one).

    `literal` is the following code word, used only by LDI32.  Fields the form does
    not use are ignored, so `encode(decode(w))` is `w` with those fields cleared.
    """
    if word >> 30 == 0b11:
        from .compact import decode_pair        # (compact builds on this module)
        return decode_pair(word)
    op = BY_CODE.get((word >> 24) & 0xFF)
    if op is None:
        return None
    form = op.form
    used = FORM_FIELDS[form]
    rd = (word >> 20) & 0xF if "rd" in used else 0
    rs1 = (word >> 16) & 0xF if "rs1" in used else 0
    rs2 = (word >> 12) & 0xF if "rs2" in used else 0
    if op.pairs and 15 in [{"rd": rd, "rs1": rs1, "rs2": rs2}[f] for f in op.pairs]:
        return None
    imm = 0
    if form is Form.REL24:
        imm = word & 0xFFFFFF
        if imm & 0x800000:
            imm -= 1 << 24
    elif form is Form.RD_IMM32:
        imm = (literal or 0) & WORD_MASK
    elif form is Form.RD_IMM20:
        imm = sign_extend(word, 20)
    elif form is Form.RD_IMMH:
        imm = (word & 0xFFFFF) << HIGH_SHIFT
    elif form is Form.BRK:
        imm = word & 0xFF
    elif "imm" in used:
        imm = word & 0xFFF
        if form in _SIGNED12 and imm & 0x800:
            imm -= 0x1000
    return Instruction(op, rd, rs1, rs2, imm)


def decode_code(words: list[int] | tuple[int, ...], index: int):
    """Decode the instruction at word `index` of a code array (reads LDI32's literal)."""
    return decode(words[index], words[index + 1] if index + 1 < len(words) else 0)


def sign_extend(value: int, bits: int) -> int:
    """Interpret the low `bits` of value as two's complement."""
    value &= (1 << bits) - 1
    return value - (1 << bits) if value >> (bits - 1) else value
