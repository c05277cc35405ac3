"""The HSX instruction set: opcode table, encoding, text form, f16 helpers."""
from .compact import Pair, last_operation, operations
from .encoding import (EncodingError, Instruction, check, decode, decode_code, encode, make,
                       sign_extend)
from .opcodes import BY_CODE, BY_MNEMONIC, OPCODES, Flags, Form, Group, Opcode
from .text import format_instruction, format_operands

__all__ = [
    "BY_CODE", "BY_MNEMONIC", "OPCODES", "EncodingError", "Flags", "Form", "Group",
    "Instruction", "Opcode", "Pair", "check", "decode", "decode_code", "encode",
    "format_instruction", "format_operands", "last_operation", "make", "operations",
    "sign_extend",
]
