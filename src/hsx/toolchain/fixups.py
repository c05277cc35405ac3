"""How a resolved value is written into a code word or data bytes, with range checks.

A JMP, JZ, JNZ or CALL whose target lies beyond its 12-bit reach is written as BR, BEQ,
BNE or LCALL, which mean the same, take the same word and reach the whole code space.

The assembler (for constants and same-module PC-relative targets) and the linker
(for relocations) patch through these functions, so a value that does not fit is
rejected with the same message, naming the instruction and a remedy, wherever it is
found.  Nothing here truncates silently.
"""
from __future__ import annotations

from hsx.image.model import RODATA_BASE
from hsx.isa.encoding import HIGH_SHIFT, IMM_RANGE, IMM_STEP, WORD_MASK
from hsx.isa.opcodes import BY_CODE, BY_MNEMONIC, Form

CODE_TYPES = frozenset({"imm12", "mem", "jump", "rel24", "imm32", "imm20", "high20"})
DATA_SIZES = {"data_byte": 1, "data_half": 2, "data_word": 4}
KINDS = frozenset({"symbol", "lo16", "hi16", "off16"})


# A target beyond the 12-bit reach of JMP, JZ, JNZ (absolute) or CALL (relative) is
# reached by the relative form with the same meaning and size: the whole code space.
_RELATIVE_FORM = {"JMP": BY_MNEMONIC["BR"].code, "JZ": BY_MNEMONIC["BEQ"].code,
                  "JNZ": BY_MNEMONIC["BNE"].code, "CALL": BY_MNEMONIC["LCALL"].code}


class FixupError(ValueError):
    """A value that does not fit its field; the message says what to use instead."""


# What a link error says when a symbol's address is beyond LDI20's reach: `hsx cc`
# compiles the program again so when it sees this (driver.build_c).
FAR_ADDRESSES = "compile with --far-addresses"


def apply_kind(kind: str, address: int, section_base: int) -> int:
    """Value of `kind(address)`; `section_base` is where the symbol's section starts."""
    if kind == "lo16":
        return address & 0xFFFF
    if kind == "hi16":
        return (address >> 16) & 0xFFFF
    if kind == "off16":
        return (address - section_base) & 0xFFFF
    return address


def section_base(section: str) -> int:
    """Start address of a section in its address space (`off16` counts from here)."""
    return 0 if section == "text" else RODATA_BASE


def patch_code(word: int, rtype: str, value: int, pc: int, pc_relative: bool = False) -> int:
    """Return `word` (at byte address `pc`) with its field set to `value`.

    `value` is the target address for branches, else the operand itself."""
    if rtype == "imm32":
        if not -(1 << 31) <= value <= 0xFFFFFFFF:
            raise FixupError(f"value {_show(value)} does not fit 32 bits")
        return value & 0xFFFFFFFF
    mnemonic = _mnemonic(word)
    if rtype == "rel24":
        return _with_rel24(word, _word_offset(mnemonic, value, pc, 23, ""))
    if rtype == "jump" and pc_relative:
        offset = _word_offset(mnemonic, value, pc, 23, "")
        if not -2048 <= offset <= 2047 and mnemonic == "CALL" and not word >> 16 & 0xF:
            return _with_rel24(_RELATIVE_FORM["CALL"] << 24, offset)   # no base register
        offset = _word_offset(mnemonic, value, pc, 11, "; use LCALL, which reaches the whole "
                                                       "code space")
        return (word & ~0xFFF) | (offset & 0xFFF)
    if rtype == "jump":                 # JMP, JZ, JNZ: an absolute byte address
        if value % 4:
            raise FixupError(f"{mnemonic} target 0x{value:X} is not a multiple of 4")
        if 0 <= value <= 4095:
            return (word & ~0xFFF) | value
        return _with_rel24(_RELATIVE_FORM[mnemonic] << 24,
                           _word_offset(mnemonic, value, pc, 23, ""))
    if rtype == "imm20":
        if not fits_imm20(value):
            raise FixupError(f"{mnemonic}: immediate {_show(value)} does not fit signed 20 bits "
                             f"(-524288..524287); use LDI32")
        return (word & ~0xFFFFF) | (value & 0xFFFFF)
    if rtype == "high20":
        if not fits_high20(value):
            raise FixupError(f"{mnemonic}: immediate {_show(value)} is not a 32-bit multiple "
                             f"of 0x1000; use LDI32")
        return (word & ~0xFFFFF) | ((value & WORD_MASK) >> HIGH_SHIFT)
    if rtype in ("imm12", "mem"):
        if not -2048 <= value <= 2047:
            if rtype == "mem":
                what, hint = "offset", "compute the address with LDI32 first"
            elif mnemonic == "LDI":
                what, hint = "immediate", f"use {wider_load(value)}"
            else:
                what, hint = "immediate", "load it into a register with LDI32"
            raise FixupError(f"{mnemonic}: {what} {_show(value)} does not fit signed 12 bits "
                             f"(-2048..2047); {hint}")
        return (word & ~0xFFF) | (value & 0xFFF)
    raise FixupError(f"unknown code relocation type '{rtype}'")


def fits_imm20(value: int) -> bool:
    """Whether LDI20 holds `value`."""
    lo, hi = IMM_RANGE[Form.RD_IMM20]
    return lo <= value <= hi


def fits_high20(value: int) -> bool:
    """Whether LDIH holds `value`, read as a signed or an unsigned 32-bit number."""
    return -(1 << 31) <= value <= WORD_MASK and not value % IMM_STEP[Form.RD_IMMH]


def wider_load(value: int) -> str:
    """The one instruction that loads `value` when LDI's 12 bits do not hold it."""
    if fits_imm20(value):
        return "LDI20"
    if fits_high20(value):
        return "LDIH"
    return "LDI32"


def _with_rel24(word: int, offset: int) -> int:
    return (word & 0xFF000000) | (offset & 0xFFFFFF)


def patch_data(data: bytearray, offset: int, rtype: str, value: int) -> None:
    """Store `value` little-endian at `offset` in `data`."""
    size = DATA_SIZES.get(rtype)
    if size is None:
        raise FixupError(f"unknown data relocation type '{rtype}'")
    check_data_value(size, value)
    data[offset:offset + size] = (value & ((1 << (8 * size)) - 1)).to_bytes(size, "little")


def check_data_value(size: int, value: int) -> None:
    """A data item of `size` bytes accepts signed or unsigned values of that width."""
    bits = 8 * size
    if not -(1 << (bits - 1)) <= value < (1 << bits):
        directive = {1: ".byte", 2: ".half", 4: ".word"}[size]
        raise FixupError(f"{directive}: value {_show(value)} does not fit {bits} bits")


def _word_offset(mnemonic: str, target: int, pc: int, sign_bit: int, hint: str) -> int:
    if target % 4:
        raise FixupError(f"{mnemonic} target 0x{target:X} is not a multiple of 4")
    offset = (target - pc) // 4
    limit = 1 << sign_bit
    if not -limit <= offset < limit:
        raise FixupError(f"{mnemonic} target 0x{target:X} is {offset} words away from 0x{pc:X}; "
                         f"{mnemonic} reaches -{limit}..{limit - 1} words{hint}")
    return offset


def _mnemonic(word: int) -> str:
    op = BY_CODE.get(word >> 24)
    return op.mnemonic if op else ".word"


def _show(value: int) -> str:
    return f"{value} (0x{value & 0xFFFFFFFF:X})" if value > 255 or value < -255 else str(value)
