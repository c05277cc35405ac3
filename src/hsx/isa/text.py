"""Render instructions as MVASM text that `hsx asm` reads back to the same words.

A compact pair is written as its two operations, each as the ordinary instruction it
stands for, on one line joined by " | " (`ADD R1, R1, R2 | LD R3, [R14+8]`): one line per
code word and address, as in every listing, and the instructions a reader already knows.
"""
from __future__ import annotations

from typing import Callable

from .compact import Pair
from .encoding import Instruction
from .opcodes import Form

# Maps a code address to a label, or None to print the address as a number.
LabelLookup = Callable[[int], "str | None"]


def _no_labels(_addr: int) -> None:
    return None


def _offset(imm: int) -> str:
    if imm == 0:
        return ""
    return f"+{imm}" if imm > 0 else f"-{-imm}"


def format_operands(ins: Instruction, pc: int, label_for: LabelLookup = _no_labels) -> str:
    """Operand text of `ins` located at code address `pc`."""
    form = ins.op.form
    rd, rs1, rs2, imm = f"R{ins.rd}", f"R{ins.rs1}", f"R{ins.rs2}", ins.imm
    if form is Form.NONE:
        return ""
    if form is Form.RD_IMM:
        return f"{rd}, {imm}"
    if form is Form.RD_IMM20:
        return f"{rd}, {imm}"
    if form in (Form.RD_IMM32, Form.RD_IMMH):
        return f"{rd}, 0x{imm:08X}"
    if form is Form.RD_MEM:
        return f"{rd}, [{rs1}{_offset(imm)}]"
    if form is Form.MEM_RS:
        return f"[{rs1}{_offset(imm)}], {rs2}"
    if form is Form.RD_RS:
        return f"{rd}, {rs1}"
    if form is Form.RD_RS_RS:
        return f"{rd}, {rs1}, {rs2}"
    if form is Form.RD_RS_IMM:
        return f"{rd}, {rs1}, {imm}"
    if form is Form.RS_RS:
        return f"{rs1}, {rs2}"
    if form is Form.RS_IMM:
        return f"{rs1}, {imm}"
    if form is Form.RS:
        return rs1
    if form is Form.RD:
        return rd
    if form is Form.CALL12 and ins.rs1:
        return f"[{rs1}{_offset(4 * imm)}]"
    if form in (Form.ABS12, Form.CALL12, Form.REL24):
        target = ins.branch_target(pc)
        return label_for(target) or f"0x{target:04X}"
    if form is Form.SVC:
        return f"MOD=0x{imm >> 8:X}, FN=0x{imm & 0xFF:02X}"
    if form is Form.BRK:
        return str(imm)
    raise AssertionError(f"unhandled form {form}")


PAIR_SEPARATOR = " | "


def format_instruction(ins: Instruction | Pair, pc: int,
                       label_for: LabelLookup = _no_labels) -> str:
    """`MNEMONIC operands` for one instruction; both of a pair's, joined by " | "."""
    if isinstance(ins, Pair):
        return PAIR_SEPARATOR.join(format_instruction(half, pc, label_for)
                                   for half in ins.halves)
    operands = format_operands(ins, pc, label_for)
    return f"{ins.op.mnemonic} {operands}" if operands else ins.op.mnemonic
