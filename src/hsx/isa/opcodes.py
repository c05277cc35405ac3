"""The HSX opcode table: the single source of truth for the instruction set.

The encoder, decoder, disassembler, assembler, VM and `docs/isa.md` all derive from
`OPCODES`.  An opcode number that is not in the table is illegal.

Instruction word (32-bit, big-endian in code space)::

    31      24 23  20 19  16 15  12 11          0
    +---------+------+------+------+-------------+
    | opcode  |  rd  | rs1  | rs2  |    imm12    |
    +---------+------+------+------+-------------+

The `rel24` form reuses bits 23..0 as one signed 24-bit word offset, `LDI20` and `LDIH`
use bits 19..0 for a 20-bit constant, and `LDI32` is followed by a second word holding
its 32-bit literal.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Form(Enum):
    """Operand form: which fields an instruction uses and how it is written in MVASM."""

    NONE = "none"            # RET
    RD_IMM = "rd_imm"        # LDI Rd, imm12            (imm signed)
    RD_IMM32 = "rd_imm32"    # LDI32 Rd, imm32          (second word)
    RD_IMM20 = "rd_imm20"    # LDI20 Rd, imm20          (imm signed, bits 19..0)
    RD_IMMH = "rd_immh"      # LDIH Rd, imm32           (low 12 bits zero; bits 19..0 hold the rest)
    RD_MEM = "rd_mem"        # LD Rd, [Ra+imm]          (imm signed byte offset)
    MEM_RS = "mem_rs"        # ST [Ra+imm], Rb
    RD_RS = "rd_rs"          # MOV Rd, Ra
    RD_RS_RS = "rd_rs_rs"    # ADD Rd, Ra, Rb
    RD_RS_IMM = "rd_rs_imm"  # ADDI Rd, Ra, imm12       (imm signed)
    RS_RS = "rs_rs"          # CMP Ra, Rb
    RS_IMM = "rs_imm"        # CMPI Ra, imm12           (imm signed)
    RS = "rs"                # PUSH Ra / JMPR Ra / CALLR Ra   (register in rs1)
    RD = "rd"                # POP Rd
    ABS12 = "abs12"          # JMP target               (absolute byte address 0..4095)
    CALL12 = "call12"        # CALL target              (signed word offset from the CALL, base rs1)
    REL24 = "rel24"          # BR target                (signed word offset from the instruction)
    SVC = "svc"              # SVC MOD=m, FN=f          (imm12 = mod<<8 | fn)
    BRK = "brk"              # BRK [code]               (code 0..255)


class Flags(Enum):
    """How an instruction changes PSW (Z=bit0, C=bit1, N=bit2, V=bit3)."""

    NONE = "-"               # PSW unchanged
    ARITH = "ZNCV"           # Z, N from the result; C carry (add) / no-borrow (sub); V signed overflow
    MUL = "ZNCV*"            # Z, N from the result; C = V = high 32 bits of the product non-zero
    LOGIC = "ZN"             # Z, N from the result; C = V = 0
    SHIFT = "ZNC"            # Z, N from the result; C = last bit shifted out (unchanged if count 0); V = 0
    FCMP = "ZNCV?"           # float compare: less N, equal Z C, greater C, unordered C V


class Group(Enum):
    """Families used for documentation and by the VM to pick an implementation."""

    MOVE = "data movement"
    MEMORY = "memory"
    ALU = "integer arithmetic and logic"
    IMMEDIATE = "immediate arithmetic"
    BRANCH = "control flow"
    STACK = "stack"
    SYSTEM = "system"
    FLOAT = "half-precision float"
    SINGLE = "single-precision float"
    DOUBLE = "double-precision float"
    CONVERT = "conversions"
    INT64 = "64-bit integer"


@dataclass(frozen=True)
class Opcode:
    """One row of the table."""

    code: int
    mnemonic: str
    form: Form
    flags: Flags
    group: Group
    summary: str
    reads_flags: bool = False
    ends_block: bool = False       # control leaves straight-line code after this instruction
    extension: bool = False        # not in the prior HSX instruction set
    pairs: frozenset[str] = frozenset()   # register fields naming a pair Rn:Rn+1 (64 bits)

    @property
    def size(self) -> int:
        """Size in bytes (LDI32 carries its literal in a second word)."""
        return 8 if self.form is Form.RD_IMM32 else 4


def _ops() -> list[Opcode]:
    M, F, G = Form, Flags, Group
    ops = [
        # --- the prior instruction set (numbers and encodings are fixed) ---
        Opcode(0x01, "LDI", M.RD_IMM, F.NONE, G.MOVE, "Rd = sign-extended imm12"),
        Opcode(0x02, "LD", M.RD_MEM, F.NONE, G.MEMORY, "Rd = mem32[Ra + imm]"),
        Opcode(0x03, "ST", M.MEM_RS, F.NONE, G.MEMORY, "mem32[Ra + imm] = Rb"),
        Opcode(0x04, "MOV", M.RD_RS, F.NONE, G.MOVE, "Rd = Ra"),
        Opcode(0x06, "LDB", M.RD_MEM, F.NONE, G.MEMORY, "Rd = zero-extended mem8[Ra + imm]"),
        Opcode(0x07, "LDH", M.RD_MEM, F.NONE, G.MEMORY, "Rd = zero-extended mem16[Ra + imm]"),
        Opcode(0x08, "STB", M.MEM_RS, F.NONE, G.MEMORY, "mem8[Ra + imm] = Rb & 0xFF"),
        Opcode(0x09, "STH", M.MEM_RS, F.NONE, G.MEMORY, "mem16[Ra + imm] = Rb & 0xFFFF"),
        Opcode(0x10, "ADD", M.RD_RS_RS, F.ARITH, G.ALU, "Rd = Ra + Rb"),
        Opcode(0x11, "SUB", M.RD_RS_RS, F.ARITH, G.ALU, "Rd = Ra - Rb (C = no borrow)"),
        Opcode(0x12, "MUL", M.RD_RS_RS, F.MUL, G.ALU, "Rd = low 32 bits of Ra * Rb"),
        Opcode(0x13, "DIV", M.RD_RS_RS, F.LOGIC, G.ALU,
               "Rd = Ra / Rb signed, truncating; INT_MIN / -1 = INT_MIN; Rb = 0 faults"),
        Opcode(0x14, "AND", M.RD_RS_RS, F.LOGIC, G.ALU, "Rd = Ra & Rb"),
        Opcode(0x15, "OR", M.RD_RS_RS, F.LOGIC, G.ALU, "Rd = Ra | Rb"),
        Opcode(0x16, "XOR", M.RD_RS_RS, F.LOGIC, G.ALU, "Rd = Ra ^ Rb"),
        Opcode(0x17, "NOT", M.RD_RS, F.LOGIC, G.ALU, "Rd = ~Ra"),
        Opcode(0x20, "CMP", M.RS_RS, F.ARITH, G.ALU, "flags of Ra - Rb"),
        Opcode(0x21, "JMP", M.ABS12, F.NONE, G.BRANCH, "PC = imm12 (absolute, 0..4095)",
               ends_block=True),
        Opcode(0x22, "JZ", M.ABS12, F.NONE, G.BRANCH, "if Z: PC = imm12", reads_flags=True,
               ends_block=True),
        Opcode(0x23, "JNZ", M.ABS12, F.NONE, G.BRANCH, "if not Z: PC = imm12",
               reads_flags=True, ends_block=True),
        Opcode(0x24, "CALL", M.CALL12, F.NONE, G.BRANCH,
               "push PC+4; PC = (rs1 ? Rs1 : PC) + 4*imm", ends_block=True),
        Opcode(0x25, "RET", M.NONE, F.NONE, G.BRANCH,
               "pop PC; with an empty stack the task ends with status R0", ends_block=True),
        Opcode(0x30, "SVC", M.SVC, F.NONE, G.SYSTEM, "supervisor call module MOD function FN",
               ends_block=True),
        Opcode(0x31, "LSL", M.RD_RS_RS, F.SHIFT, G.ALU, "Rd = Ra << (Rb & 31)"),
        Opcode(0x32, "LSR", M.RD_RS_RS, F.SHIFT, G.ALU, "Rd = Ra >> (Rb & 31), logical"),
        Opcode(0x33, "ASR", M.RD_RS_RS, F.SHIFT, G.ALU, "Rd = Ra >> (Rb & 31), arithmetic"),
        Opcode(0x34, "ADC", M.RD_RS_RS, F.ARITH, G.ALU, "Rd = Ra + Rb + C", reads_flags=True),
        Opcode(0x35, "SBC", M.RD_RS_RS, F.ARITH, G.ALU, "Rd = Ra - Rb - (1 - C)",
               reads_flags=True),
        Opcode(0x40, "PUSH", M.RS, F.NONE, G.STACK, "SP -= 4; mem32[SP] = Ra"),
        Opcode(0x41, "POP", M.RD, F.NONE, G.STACK, "Rd = mem32[SP]; SP += 4"),
        Opcode(0x50, "FADD", M.RD_RS_RS, F.NONE, G.FLOAT, "Rd.lo16 = f16(Ra) + f16(Rb)"),
        Opcode(0x51, "FSUB", M.RD_RS_RS, F.NONE, G.FLOAT, "Rd.lo16 = f16(Ra) - f16(Rb)"),
        Opcode(0x52, "FMUL", M.RD_RS_RS, F.NONE, G.FLOAT, "Rd.lo16 = f16(Ra) * f16(Rb)"),
        Opcode(0x53, "FDIV", M.RD_RS_RS, F.NONE, G.FLOAT,
               "Rd.lo16 = f16(Ra) / f16(Rb) (IEEE: x/0 = ±Inf, 0/0 = NaN)"),
        Opcode(0x54, "I2F", M.RD_RS, F.NONE, G.FLOAT, "Rd.lo16 = f16(signed Ra), round to nearest even"),
        Opcode(0x55, "F2I", M.RD_RS, F.NONE, G.FLOAT,
               "Rd = int(f16(Ra)) truncated; ±Inf saturates, NaN gives 0"),
        Opcode(0x60, "LDI32", M.RD_IMM32, F.NONE, G.MOVE, "Rd = the 32-bit literal in the next word"),
        Opcode(0x7F, "BRK", M.BRK, F.NONE, G.SYSTEM, "debugger trap with code 0..255",
               ends_block=True),
        # --- extensions (free slots in the prior table) ---
        Opcode(0x0A, "LDBS", M.RD_MEM, F.NONE, G.MEMORY, "Rd = sign-extended mem8[Ra + imm]",
               extension=True),
        Opcode(0x0B, "LDHS", M.RD_MEM, F.NONE, G.MEMORY, "Rd = sign-extended mem16[Ra + imm]",
               extension=True),
        Opcode(0x18, "DIVU", M.RD_RS_RS, F.LOGIC, G.ALU, "Rd = Ra / Rb unsigned; Rb = 0 faults",
               extension=True),
        Opcode(0x19, "REM", M.RD_RS_RS, F.LOGIC, G.ALU,
               "Rd = Ra % Rb signed (sign of Ra, as C); INT_MIN % -1 = 0; Rb = 0 faults",
               extension=True),
        Opcode(0x1A, "REMU", M.RD_RS_RS, F.LOGIC, G.ALU, "Rd = Ra % Rb unsigned; Rb = 0 faults",
               extension=True),
        Opcode(0x1B, "MULHU", M.RD_RS_RS, F.LOGIC, G.ALU,
               "Rd = high 32 bits of unsigned Ra * Rb", extension=True),
        Opcode(0x1C, "MULHS", M.RD_RS_RS, F.LOGIC, G.ALU,
               "Rd = high 32 bits of signed Ra * Rb", extension=True),
        Opcode(0x26, "JMPR", M.RS, F.NONE, G.BRANCH, "PC = Ra (indirect jump)", ends_block=True,
               extension=True),
        Opcode(0x27, "CALLR", M.RS, F.NONE, G.BRANCH, "push PC+4; PC = Ra (indirect call)",
               ends_block=True, extension=True),
        Opcode(0x28, "BR", M.REL24, F.NONE, G.BRANCH, "PC += 4*off24 (relative, whole code space)",
               ends_block=True, extension=True),
        Opcode(0x29, "LCALL", M.REL24, F.NONE, G.BRANCH, "push PC+4; PC += 4*off24",
               ends_block=True, extension=True),
        Opcode(0x36, "ADDI", M.RD_RS_IMM, F.ARITH, G.IMMEDIATE, "Rd = Ra + imm", extension=True),
        Opcode(0x37, "ANDI", M.RD_RS_IMM, F.LOGIC, G.IMMEDIATE, "Rd = Ra & imm", extension=True),
        Opcode(0x38, "ORI", M.RD_RS_IMM, F.LOGIC, G.IMMEDIATE, "Rd = Ra | imm", extension=True),
        Opcode(0x39, "XORI", M.RD_RS_IMM, F.LOGIC, G.IMMEDIATE, "Rd = Ra ^ imm", extension=True),
        Opcode(0x3A, "LSLI", M.RD_RS_IMM, F.SHIFT, G.IMMEDIATE, "Rd = Ra << (imm & 31)",
               extension=True),
        Opcode(0x3B, "LSRI", M.RD_RS_IMM, F.SHIFT, G.IMMEDIATE, "Rd = Ra >> (imm & 31), logical",
               extension=True),
        Opcode(0x3C, "ASRI", M.RD_RS_IMM, F.SHIFT, G.IMMEDIATE,
               "Rd = Ra >> (imm & 31), arithmetic", extension=True),
        Opcode(0x3D, "CMPI", M.RS_IMM, F.ARITH, G.IMMEDIATE, "flags of Ra - imm", extension=True),
        Opcode(0x61, "LDI20", M.RD_IMM20, F.NONE, G.MOVE,
               "Rd = sign-extended imm20 (-524288..524287), one word where LDI32 takes two",
               extension=True),
        Opcode(0x62, "LDIH", M.RD_IMMH, F.NONE, G.MOVE,
               "Rd = imm, a value whose low 12 bits are zero (bits 19..0 hold its top 20): "
               "masks and float constants in one word", extension=True),
        Opcode(0x3E, "MULI", M.RD_RS_IMM, F.MUL, G.IMMEDIATE, "Rd = low 32 bits of Ra * imm",
               extension=True),
    ]
    ops += _math_ops()
    conditions = [
        (0x70, "BEQ", "Z", "equal"),
        (0x71, "BNE", "!Z", "not equal"),
        (0x72, "BLT", "N != V", "signed less than"),
        (0x73, "BGE", "N == V", "signed greater or equal"),
        (0x74, "BGT", "!Z and N == V", "signed greater than"),
        (0x75, "BLE", "Z or N != V", "signed less or equal"),
        (0x76, "BLTU", "!C", "unsigned less than"),
        (0x77, "BGEU", "C", "unsigned greater or equal"),
        (0x78, "BGTU", "C and !Z", "unsigned greater than"),
        (0x79, "BLEU", "!C or Z", "unsigned less or equal"),
    ]
    for code, name, test, meaning in conditions:
        ops.append(Opcode(code, name, M.REL24, F.NONE, G.BRANCH,
                          f"if {test} ({meaning} after CMP): PC += 4*off24",
                          reads_flags=True, ends_block=True, extension=True))
    return ops


_ALL = frozenset({"rd", "rs1", "rs2"})


def _math_ops() -> list[Opcode]:
    """Floating point and 64-bit integer arithmetic (0x80..0xAF): what C's float, double
    and long long need, at the cost of one instruction instead of a library routine of
    hundreds (docs/isa.md, "Floating point and 64-bit integers")."""
    M, F, G = Form, Flags, Group

    def op(code, name, form, group, summary, pairs=frozenset(), flags=F.NONE):
        return Opcode(code, name, form, flags, group, summary, extension=True,
                      pairs=frozenset(pairs))

    rd, rs1, both = {"rd"}, {"rs1"}, {"rd", "rs1"}
    return [
        op(0x80, "FADDS", M.RD_RS_RS, G.SINGLE, "Rd = Ra + Rb (binary32)"),
        op(0x81, "FSUBS", M.RD_RS_RS, G.SINGLE, "Rd = Ra - Rb (binary32)"),
        op(0x82, "FMULS", M.RD_RS_RS, G.SINGLE, "Rd = Ra * Rb (binary32)"),
        op(0x83, "FDIVS", M.RD_RS_RS, G.SINGLE, "Rd = Ra / Rb (binary32)"),
        op(0x84, "FCMPS", M.RS_RS, G.SINGLE, "flags of the compare of Ra with Rb (binary32)",
           flags=F.FCMP),
        op(0x88, "DADD", M.RD_RS_RS, G.DOUBLE, "Rd:Rd+1 = Ra:Ra+1 + Rb:Rb+1 (binary64)", _ALL),
        op(0x89, "DSUB", M.RD_RS_RS, G.DOUBLE, "Rd:Rd+1 = Ra:Ra+1 - Rb:Rb+1 (binary64)", _ALL),
        op(0x8A, "DMUL", M.RD_RS_RS, G.DOUBLE, "Rd:Rd+1 = Ra:Ra+1 * Rb:Rb+1 (binary64)", _ALL),
        op(0x8B, "DDIV", M.RD_RS_RS, G.DOUBLE, "Rd:Rd+1 = Ra:Ra+1 / Rb:Rb+1 (binary64)", _ALL),
        op(0x8C, "DCMP", M.RS_RS, G.DOUBLE,
           "flags of the compare of Ra:Ra+1 with Rb:Rb+1 (binary64)", {"rs1", "rs2"},
           flags=F.FCMP),
        op(0x90, "S2D", M.RD_RS, G.CONVERT, "Rd:Rd+1 = binary32 Ra widened to binary64", rd),
        op(0x91, "D2S", M.RD_RS, G.CONVERT, "Rd = binary64 Ra:Ra+1 rounded to binary32", rs1),
        op(0x92, "I2S", M.RD_RS, G.CONVERT, "Rd = signed Ra as binary32"),
        op(0x93, "U2S", M.RD_RS, G.CONVERT, "Rd = unsigned Ra as binary32"),
        op(0x94, "S2I", M.RD_RS, G.CONVERT, "Rd = binary32 Ra truncated to a signed integer"),
        op(0x95, "S2U", M.RD_RS, G.CONVERT, "Rd = binary32 Ra truncated to an unsigned integer"),
        op(0x96, "I2D", M.RD_RS, G.CONVERT, "Rd:Rd+1 = signed Ra as binary64", rd),
        op(0x97, "U2D", M.RD_RS, G.CONVERT, "Rd:Rd+1 = unsigned Ra as binary64", rd),
        op(0x98, "D2I", M.RD_RS, G.CONVERT, "Rd = binary64 Ra:Ra+1 truncated to signed", rs1),
        op(0x99, "D2U", M.RD_RS, G.CONVERT, "Rd = binary64 Ra:Ra+1 truncated to unsigned", rs1),
        op(0x9A, "L2D", M.RD_RS, G.CONVERT, "Rd:Rd+1 = signed 64-bit Ra:Ra+1 as binary64", both),
        op(0x9B, "UL2D", M.RD_RS, G.CONVERT, "Rd:Rd+1 = unsigned 64-bit Ra:Ra+1 as binary64",
           both),
        op(0x9C, "D2L", M.RD_RS, G.CONVERT,
           "Rd:Rd+1 = binary64 Ra:Ra+1 truncated to signed 64-bit", both),
        op(0x9D, "D2UL", M.RD_RS, G.CONVERT,
           "Rd:Rd+1 = binary64 Ra:Ra+1 truncated to unsigned 64-bit", both),
        op(0x9E, "L2S", M.RD_RS, G.CONVERT, "Rd = signed 64-bit Ra:Ra+1 as binary32", rs1),
        op(0x9F, "UL2S", M.RD_RS, G.CONVERT, "Rd = unsigned 64-bit Ra:Ra+1 as binary32", rs1),
        op(0xA0, "S2L", M.RD_RS, G.CONVERT, "Rd:Rd+1 = binary32 Ra truncated to signed 64-bit",
           rd),
        op(0xA1, "S2UL", M.RD_RS, G.CONVERT,
           "Rd:Rd+1 = binary32 Ra truncated to unsigned 64-bit", rd),
        op(0xA8, "MUL64", M.RD_RS_RS, G.INT64, "Rd:Rd+1 = low 64 bits of Ra:Ra+1 * Rb:Rb+1",
           _ALL),
        op(0xA9, "DIV64", M.RD_RS_RS, G.INT64,
           "Rd:Rd+1 = Ra:Ra+1 / Rb:Rb+1 signed, truncating; MIN / -1 = MIN; 0 faults", _ALL),
        op(0xAA, "DIVU64", M.RD_RS_RS, G.INT64, "Rd:Rd+1 = Ra:Ra+1 / Rb:Rb+1 unsigned; 0 faults",
           _ALL),
        op(0xAB, "REM64", M.RD_RS_RS, G.INT64,
           "Rd:Rd+1 = Ra:Ra+1 % Rb:Rb+1 signed (sign of Ra); MIN % -1 = 0; 0 faults", _ALL),
        op(0xAC, "REMU64", M.RD_RS_RS, G.INT64, "Rd:Rd+1 = Ra:Ra+1 % Rb:Rb+1 unsigned; 0 faults",
           _ALL),
    ]


OPCODES: tuple[Opcode, ...] = tuple(sorted(_ops(), key=lambda op: op.code))
BY_CODE: dict[int, Opcode] = {op.code: op for op in OPCODES}
BY_MNEMONIC: dict[str, Opcode] = {op.mnemonic: op for op in OPCODES}

assert len(BY_CODE) == len(OPCODES), "duplicate opcode number"
assert len(BY_MNEMONIC) == len(OPCODES), "duplicate mnemonic"

# Condition each conditional branch tests, over PSW bits; used by the VM and the docs.
Z_FLAG, C_FLAG, N_FLAG, V_FLAG = 0x1, 0x2, 0x4, 0x8

# Register conventions the hardware itself imposes.
SP_REGISTER = 15          # R15 *is* the stack pointer (PUSH/POP/CALL/RET use it)
REGISTER_COUNT = 16

# R0 after an SVC nobody implements (module or function unknown); execution goes on.
HSX_ERR_ENOSYS = 0xFFFFFF01
