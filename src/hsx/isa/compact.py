"""Compact pairs: two 15-bit operations in one code word (docs/isa.md, "Compact pairs").

A word whose top two bits are 11 (opcode bytes 0xC0..0xFF, which no instruction uses)
holds two operations, the first in bits 29..15 and the second in bits 14..0.  Each is
a 5-bit compact opcode and 10 bits of operands, and stands for one ordinary instruction
(`expand`): `C.ADD R1, R2` is `ADD R1, R1, R2`.  The program counter stays word-aligned,
so breakpoints, line tables and the decoded code keep one entry per word, and a pair is
one step: both operations run, the first before the second.  The first never transfers
control; a branch in the second is relative to the pair's address.

`COMPACT` is the one table the encoder, decoder, the C header and docs/isa.md derive
from; the operations are the ones the compiler's code uses most
(benchmarks/compact_bench.py).
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from .encoding import Instruction, make
from .opcodes import BY_MNEMONIC, Group

PAIR_TAG = 0b11                 # bits 31..30 of a pair word
HALF_BITS = 15
HALF_MASK = (1 << HALF_BITS) - 1
FRAME_REGISTER = 14             # the register C.LDF/C.STF address from (the compiler's frame)


class Layout(Enum):
    """How the 10 operand bits (9..0) of a compact operation are laid out."""

    RR = "a4 b4 00"             # two registers
    RI6 = "a4 imm6"             # a register and a signed 6-bit immediate
    RI5 = "a4 0 imm5"           # a register and a 5-bit shift count
    RRO = "a4 b4 off2"          # data register, base register, a 2-bit offset
    F6 = "a4 u6"                # a register and a frame slot: R14 - 4 x (u6 + 1)
    R = "a4 000000"             # one register
    NONE = "0000000000"
    B10 = "off10"               # a signed 10-bit word offset from the pair


@dataclass(frozen=True)
class CompactOp:
    """One compact operation and the instruction it stands for.

    Register `a` is the first register field, `b` the second; `two_address` ops use
    `a` as destination and first source; `scale` multiplies an offset into bytes.  The
    F6 ops address the frame below R14 (C.LDF, C.STF, and C.ADDF: Ra = the address of a
    local), where the compiler's locals and spill slots all are: -4 .. -256."""

    code: int
    name: str
    mnemonic: str
    layout: Layout
    two_address: bool = False
    scale: int = 1

    @property
    def frame(self) -> bool:
        return self.layout is Layout.F6

    @property
    def transfers_control(self) -> bool:
        return BY_MNEMONIC[self.mnemonic].group is Group.BRANCH


def _table() -> tuple[CompactOp, ...]:
    L = Layout
    rows: list[tuple] = [("MOV", L.RR, {})]
    rows += [(m, L.RR, {"two_address": True}) for m in ("ADD", "SUB", "AND", "OR", "XOR")]
    rows += [("CMP", L.RR, {}), ("LDI", L.RI6, {}), ("ADDI", L.RI6, {"two_address": True}),
             ("CMPI", L.RI6, {}), ("LSLI", L.RI5, {"two_address": True}),
             ("LSRI", L.RI5, {"two_address": True}),
             ("LD", L.F6, {"scale": 4, "name": "C.LDF"}),
             ("ST", L.F6, {"scale": 4, "name": "C.STF"}),
             ("ADDI", L.F6, {"scale": 4, "name": "C.ADDF"}),
             ("LD", L.RRO, {"scale": 4}), ("ST", L.RRO, {"scale": 4}),
             ("LDB", L.RRO, {}), ("STB", L.RRO, {}),
             ("PUSH", L.R, {}), ("POP", L.R, {}), ("RET", L.NONE, {})]
    rows += [(m, L.B10, {}) for m in ("BR", "BEQ", "BNE", "BLT", "BGE", "BLTU", "BGEU", "BGTU",
                                      "BLE")]
    # Codes from 1: an all-zero half is never an operation, so a zeroed pair is illegal.
    return tuple(CompactOp(code, extra.pop("name", f"C.{m}"), m, layout, **extra)
                 for code, (m, layout, extra) in enumerate(rows, start=1))


COMPACT: tuple[CompactOp, ...] = _table()
assert len(COMPACT) < 32, "the compact opcode is 5 bits"
BY_COMPACT_CODE: dict[int, CompactOp] = {c.code: c for c in COMPACT}
_BY_MNEMONIC: dict[str, list[CompactOp]] = {}
for _c in COMPACT:
    _BY_MNEMONIC.setdefault(_c.mnemonic, []).append(_c)
COMMUTATIVE = frozenset({"ADD", "AND", "OR", "XOR", "MUL"})


def _signed(value: int, bits: int) -> int:
    value &= (1 << bits) - 1
    return value - (1 << bits) if value >> (bits - 1) else value


def _fits(value: int, bits: int) -> bool:
    return -(1 << (bits - 1)) <= value < (1 << (bits - 1))


def _operands(c: CompactOp, ins: Instruction) -> tuple[int, int, int] | None:
    """(a, b, immediate field) for `ins` in compact operation `c`, or None."""
    m, L = c.mnemonic, Layout
    if c.layout is L.B10:
        return (0, 0, ins.imm & 0x3FF) if _fits(ins.imm, 10) else None
    if c.layout is L.NONE:
        return 0, 0, 0
    if c.layout is L.R:
        return (ins.rs1 if m == "PUSH" else ins.rd), 0, 0
    if c.layout is L.RR:
        if m == "CMP":
            return ins.rs1, ins.rs2, 0
        if m == "MOV":
            return ins.rd, ins.rs1, 0
        if ins.rd == ins.rs1:
            return ins.rd, ins.rs2, 0
        if ins.rd == ins.rs2 and m in COMMUTATIVE:
            return ins.rd, ins.rs1, 0
        return None
    if c.layout is L.RI5:
        return (ins.rd, 0, ins.imm & 31) if ins.rd == ins.rs1 and 0 <= ins.imm <= 31 else None
    data = ins.rs2 if m in ("ST", "STB") else ins.rd
    if ins.imm % c.scale:
        return None
    offset = ins.imm // c.scale
    if c.layout is L.F6:
        slot = -offset - 1
        return (data, 0, slot) if ins.rs1 == FRAME_REGISTER and 0 <= slot < 64 else None
    if c.layout is L.RI6:
        if c.two_address and ins.rd != ins.rs1:
            return None
        value = ins.rs1 if m == "CMPI" else ins.rd
        return (value, 0, ins.imm & 63) if _fits(ins.imm, 6) else None
    # RRO: a base register and an offset 0..3 (in units of `scale`)
    return (data, ins.rs1, offset) if 0 <= offset <= 3 else None


def compact(ins: Instruction) -> int | None:
    """The 15-bit compact encoding of `ins`, or None when it has none."""
    for c in _BY_MNEMONIC.get(ins.op.mnemonic, ()):
        fields = _operands(c, ins)
        if fields is not None:
            a, b, imm = fields
            if c.layout in (Layout.RI6, Layout.F6, Layout.RI5, Layout.B10, Layout.NONE,
                            Layout.R):
                operands = (a << 6) | imm if c.layout is not Layout.B10 else imm
            else:
                operands = (a << 6) | (b << 2) | imm
            return (c.code << 10) | operands
    return None


def expand(half: int) -> Instruction | None:
    """The instruction a 15-bit compact operation stands for; None when `half` is none
    (an unused code, or bits that must be zero are not)."""
    c = BY_COMPACT_CODE.get(half >> 10)
    if c is None:
        return None
    bits = half & 0x3FF
    a, b, low2 = bits >> 6, (bits >> 2) & 0xF, bits & 3
    m, L = c.mnemonic, Layout
    if c.layout is L.B10:
        return make(m, imm=_signed(bits, 10))
    if c.layout is L.NONE:
        return make(m) if bits == 0 else None
    if c.layout is L.R:
        if bits & 0x3F:
            return None
        return make(m, rs1=a) if m == "PUSH" else make(m, rd=a)
    if c.layout is L.RR:
        if low2:
            return None
        if m == "CMP":
            return make(m, rs1=a, rs2=b)
        if m == "MOV":
            return make(m, rd=a, rs1=b)
        return make(m, rd=a, rs1=a, rs2=b)
    if c.layout is L.RI5:
        if bits & 0x20:
            return None
        return make(m, rd=a, rs1=a, imm=bits & 31)
    if c.layout is L.F6:
        imm = -c.scale * ((bits & 63) + 1)
        return (make(m, rs1=FRAME_REGISTER, rs2=a, imm=imm) if m == "ST"
                else make(m, rd=a, rs1=FRAME_REGISTER, imm=imm))
    if c.layout is L.RI6:
        imm = _signed(bits, 6) * c.scale
        if m == "LDI":
            return make(m, rd=a, imm=imm)
        if m == "CMPI":
            return make(m, rs1=a, imm=imm)
        return make(m, rd=a, rs1=a, imm=imm)
    imm = low2 * c.scale                       # RRO
    return make(m, rd=a, rs1=b, imm=imm) if m in ("LD", "LDB") else make(m, rs1=b, rs2=a, imm=imm)


def is_pair_word(word: int) -> bool:
    return (word >> 30) == PAIR_TAG


@dataclass(frozen=True)
class Pair:
    """A decoded pair word: two instructions run as one step of 4 bytes."""

    first: Instruction
    second: Instruction

    size = 4

    @property
    def halves(self) -> tuple[Instruction, Instruction]:
        return self.first, self.second

    def branch_target(self, pc: int) -> int | None:
        return self.second.branch_target(pc)


def pack(first: Instruction, second: Instruction) -> int:
    """The pair word of two instructions that both have a compact form, the first
    transferring no control."""
    a, b = compact(first), compact(second)
    if a is None or b is None or first.op.group is Group.BRANCH:
        raise ValueError(f"{first.op.mnemonic} and {second.op.mnemonic} do not pair")
    return pair_word(a, b)


def pair_word(first: int, second: int) -> int:
    """The word holding two compact operations (their 15-bit forms)."""
    return (PAIR_TAG << 30) | (first << HALF_BITS) | second


def operations(ins: Instruction | Pair | None) -> tuple[Instruction, ...]:
    """The operations a decoded code word runs, in order: a pair's two, an instruction
    alone, none for an illegal word (None).  The last one decides where control goes."""
    if ins is None:
        return ()
    return ins.halves if isinstance(ins, Pair) else (ins,)


def last_operation(ins: Instruction | Pair | None) -> Instruction | None:
    """The operation of a code word that decides where control goes (a pair's second)."""
    ops = operations(ins)
    return ops[-1] if ops else None


def decode_pair(word: int) -> Pair | None:
    """A pair word's two instructions; None unless both halves are operations and the
    first transfers no control."""
    first, second = expand((word >> HALF_BITS) & HALF_MASK), expand(word & HALF_MASK)
    if first is None or second is None or first.op.group is Group.BRANCH:
        return None
    return Pair(first, second)
