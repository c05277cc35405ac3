"""Helpers for VM tests: a tiny instruction parser (tests only) and image builders.

`asm("LDI R1, 5", "ADD R2, R1, R1")` -> code words. Operands follow the form of the
mnemonic in the opcode table; branch operands are the raw immediate (absolute address
for JMP/JZ/JNZ, signed word offset for CALL/BR/Bcc/LCALL).
"""
from __future__ import annotations

import re

from hsx.image.model import HxeImage
from hsx.isa import BY_MNEMONIC, Form, encode, make
from hsx.vm import Machine
from hsx.vm.svc import StandaloneSvc

_MEM = re.compile(r"\[\s*R(\d+)\s*(?:([+-])\s*(\w+))?\s*\]", re.I)


def _num(text: str) -> int:
    return int(text.strip(), 0)


def _reg(text: str) -> int:
    return int(text.strip().upper().lstrip("R"))


def parse(line: str) -> list[int]:
    name, _, rest = line.strip().partition(" ")
    op = BY_MNEMONIC[name.upper()]
    args = [a.strip() for a in re.split(r",(?![^\[]*\])", rest) if a.strip()]
    reg = _reg
    f = op.form
    fields: dict[str, int] = {}
    if f in (Form.RD_IMM, Form.RD_IMM32):
        fields = {"rd": reg(args[0]), "imm": _num(args[1])}
    elif f in (Form.RD_MEM, Form.MEM_RS):
        mem_arg, reg_arg = (args[1], args[0]) if f is Form.RD_MEM else (args[0], args[1])
        m = _MEM.fullmatch(mem_arg)
        imm = _num(m.group(3)) * (-1 if m.group(2) == "-" else 1) if m.group(3) else 0
        fields = {"rs1": int(m.group(1)), "imm": imm,
                  ("rd" if f is Form.RD_MEM else "rs2"): reg(reg_arg)}
    elif f is Form.RD_RS:
        fields = {"rd": reg(args[0]), "rs1": reg(args[1])}
    elif f is Form.RD_RS_RS:
        fields = {"rd": reg(args[0]), "rs1": reg(args[1]), "rs2": reg(args[2])}
    elif f is Form.RD_RS_IMM:
        fields = {"rd": reg(args[0]), "rs1": reg(args[1]), "imm": _num(args[2])}
    elif f is Form.RS_RS:
        fields = {"rs1": reg(args[0]), "rs2": reg(args[1])}
    elif f is Form.RS_IMM:
        fields = {"rs1": reg(args[0]), "imm": _num(args[1])}
    elif f is Form.RS:
        fields = {"rs1": reg(args[0])}
    elif f is Form.RD:
        fields = {"rd": reg(args[0])}
    elif f is Form.CALL12:
        fields = {"imm": _num(args[0])} if len(args) == 1 else {"rs1": reg(args[0]),
                                                                "imm": _num(args[1])}
    elif f in (Form.ABS12, Form.REL24, Form.SVC, Form.BRK):
        fields = {"imm": _num(args[0])} if args else {}
    return encode(make(op.mnemonic, **fields))


def asm(*lines: str | int) -> list[int]:
    words: list[int] = []
    for line in lines:
        words.extend([line] if isinstance(line, int) else parse(line))
    return words


def image(words: list[int], rodata: bytes = b"", entry: int = 0, bss: int = 0) -> HxeImage:
    code = b"".join(w.to_bytes(4, "big") for w in words)
    return HxeImage(code=code, rodata=rodata, entry=entry, bss_size=bss)


# How a test runs guest code: the Python engine's exact interpreter, its translator, or
# the native engine (the C core).  Fixtures parametrize over all three.
MODES = [False, True, "native"]
MODE_IDS = ["interp", "translate", "native"]


def machine_for(svc, mode: bool | str = True) -> Machine:
    if mode == "native":
        return Machine(svc, engine="native")
    if mode == "native-fetch":         # the microcontroller build: decodes at fetch
        from hsx.vm.native.engine import NativeMachine
        return NativeMachine(svc, variant="fetch")
    # hot_after=1: blocks are translated at first sight, so tests exercise the translator
    return Machine(svc, translate=mode, hot_after=1, engine="python")


def machine(translate: bool | str = True, **svc) -> Machine:
    return machine_for(StandaloneSvc(**svc) if svc else None, translate)


def load(*lines: str | int, translate: bool = True, rodata: bytes = b"", entry: int = 0,
         mem_size: int = 0x10000, stack_size: int = 0x2000, **svc):
    """(machine, context) for a program given as text lines / raw words."""
    m = machine(translate, **svc)
    ctx = m.create_context(image(asm(*lines), rodata, entry), mem_size=mem_size,
                           stack_size=stack_size)
    return m, ctx
