"""The source each straight-line instruction compiles to inside a block (one emitter per
mnemonic), and the names that source may call.
"""
from __future__ import annotations

import struct
from typing import TYPE_CHECKING, Callable

from hsx.isa import BY_MNEMONIC, Form, Group, Instruction
from hsx.isa.encoding import FORM_FIELDS
from hsx.isa.f16 import f16_add, f16_div, f16_mul, f16_sub, f16_to_int, int_to_f16

from .interp import MATH_FUNCTIONS, MEMORY_WIDTH
from .signals import Halt, divide_fault, memory_fault, pc_fault, sp_fault, stack_fault

if TYPE_CHECKING:
    from .blockgen import BlockCompiler

M = 0xFFFFFFFF


def _y(g: BlockCompiler, ins: Instruction) -> str:
    """Second operand: Rb for register forms, the immediate (as u32) for immediate forms."""
    if "rs2" in FORM_FIELDS[ins.op.form]:
        return g.operand(ins.rs2, "y")
    return str(ins.imm & M)


def _ldi(g: BlockCompiler, ins: Instruction) -> None:
    g.set_reg(ins.rd, str(ins.imm & M))


def _mov(g: BlockCompiler, ins: Instruction) -> None:
    g.set_reg(ins.rd, f"r{ins.rs1}")


_LOAD_VALUE = {
    "LD": "W[ea >> 2] if not ea & 3 else U32(mem, ea)[0]",
    "LDB": "mem[ea]",
    "LDBS": "mem[ea] - ((mem[ea] & 0x80) << 1) & 0xFFFFFFFF",
    "LDH": "mem[ea] | (mem[ea + 1] << 8)",
    "LDHS": "((mem[ea] | (mem[ea + 1] << 8)) ^ 0x8000) - 0x8000 & 0xFFFFFFFF",
}
_STORE = {
    "ST": ["if ea & 3: P32(mem, ea, {v})", "else: W[ea >> 2] = {v}"],
    "STB": ["mem[ea] = {v} & 0xFF"],
    "STH": ["mem[ea] = {v} & 0xFF", "mem[ea + 1] = ({v} >> 8) & 0xFF"],
}


def _load(g: BlockCompiler, ins: Instruction) -> None:
    g.ea(ins)
    g.check_memory(MEMORY_WIDTH[ins.op.mnemonic])
    g.writeback_regs()                     # the window must show current registers
    g.emit("pass")
    g.depth -= 1
    g.set_reg(ins.rd, f"({_LOAD_VALUE[ins.op.mnemonic]})")


def _store(g: BlockCompiler, ins: Instruction) -> None:
    g.ea(ins)
    value = f"r{ins.rs2}"
    lines = [line.format(v=value) for line in _STORE[ins.op.mnemonic]]
    g.check_memory(MEMORY_WIDTH[ins.op.mnemonic])
    g.writeback_regs()
    for line in lines:
        g.emit(line)
    for r in sorted(g.used):               # the store may have changed any register
        g.emit(f"r{r} = R[{r}]")
    g.depth -= 1
    g.emit("else:")
    with g.indent():
        for line in lines:
            g.emit(line)


def _binary(kind: str, op: str) -> Callable[[BlockCompiler, Instruction], None]:
    """ADD/SUB/AND/OR/XOR and their immediate forms."""
    def emit(g: BlockCompiler, ins: Instruction) -> None:
        x = g.operand(ins.rs1, "x")
        y = _y(g, ins)
        g.set_reg(ins.rd, op.format(x=x, y=y))
        if g.live.get(g.k):
            if kind == "logic":
                g.set_flags(kind, r=g.result(ins.rd))
            else:
                g.set_flags(kind, x=x, y=y, r=g.result(ins.rd))
    return emit


def _cmp(g: BlockCompiler, ins: Instruction) -> None:
    if g.live.get(g.k):
        g.set_flags("sub", x=g.operand(ins.rs1, "x"), y=_y(g, ins))


def _with_carry(kind: str, op: str) -> Callable[[BlockCompiler, Instruction], None]:
    """ADC/SBC: the incoming carry comes from the current flags."""
    def emit(g: BlockCompiler, ins: Instruction) -> None:
        c = f"c{g.k}"
        g.emit(f"{c} = {g.flags.carry()}")
        x, y = g.operand(ins.rs1, "x"), g.operand(ins.rs2, "y")
        g.set_reg(ins.rd, op.format(x=x, y=y, c=c))
        if g.live.get(g.k):
            g.set_flags(kind, x=x, y=y, c=c, r=g.result(ins.rd))
    return emit


def _mul(g: BlockCompiler, ins: Instruction) -> None:
    y = _y(g, ins)
    if g.live.get(g.k):
        p = f"p{g.k}"
        g.emit(f"{p} = r{ins.rs1} * {y}")
        g.set_reg(ins.rd, f"{p} & {M}")
        g.set_flags("mul", p=p)
    else:
        g.set_reg(ins.rd, f"(r{ins.rs1} * {y}) & {M}")


def _logic_result(op: str) -> Callable[[BlockCompiler, Instruction], None]:
    """Instructions whose flags are Z/N of the result with C = V = 0 (NOT, MULH*)."""
    def emit(g: BlockCompiler, ins: Instruction) -> None:
        g.set_reg(ins.rd, op.format(x=f"r{ins.rs1}", y=f"r{ins.rs2}"))
        if g.live.get(g.k):
            g.set_flags("logic", r=g.result(ins.rd))
    return emit


def _divide(op: str) -> Callable[[BlockCompiler, Instruction], None]:
    def emit(g: BlockCompiler, ins: Instruction) -> None:
        g.emit(f"if not r{ins.rs2}:")
        with g.indent():
            g.fault(f"divide_fault({g.pc}, {g.rem(g.k)})")
        g.set_reg(ins.rd, op.format(x=f"r{ins.rs1}", y=f"r{ins.rs2}"))
        if g.live.get(g.k):
            g.set_flags("logic", r=g.result(ins.rd))
    return emit


# Shift value and last-bit-out, given x (u32 operand) and s (count 1..31).
_SHIFTS = {
    "LSL": ("({x} << {s}) & 0xFFFFFFFF", "({x} >> (32 - {s})) & 1"),
    "LSR": ("{x} >> {s}", "({x} >> ({s} - 1)) & 1"),
    "ASR": ("(({x} ^ 0x80000000) - 0x80000000 >> {s}) & 0xFFFFFFFF",
            "(({x} ^ 0x80000000) - 0x80000000 >> ({s} - 1)) & 1"),
}


def _shift(base: str) -> Callable[[BlockCompiler, Instruction], None]:
    value, carry = _SHIFTS[base]

    def emit(g: BlockCompiler, ins: Instruction) -> None:
        k, x, live = g.k, f"r{ins.rs1}", g.live.get(g.k)
        if ins.op.form is Form.RD_RS_RS:
            s = f"s{k}"
            g.emit(f"{s} = r{ins.rs2} & 31")
            if live:
                g.emit(f"c{k} = ({carry.format(x=x, s=s)}) if {s} else {g.flags.carry()}")
            g.set_reg(ins.rd, f"({value.format(x=x, s=s)}) if {s} else {x}")
        else:
            s = str(ins.imm & 31)
            if live:
                g.emit(f"c{k} = " + (carry.format(x=x, s=s) if s != "0" else g.flags.carry()))
            g.set_reg(ins.rd, value.format(x=x, s=s) if s != "0" else x)
        if live:
            g.set_flags("shift", r=g.result(ins.rd), c=f"c{k}")
    return emit


def _float(fn: str) -> Callable[[BlockCompiler, Instruction], None]:
    def emit(g: BlockCompiler, ins: Instruction) -> None:
        g.set_reg(ins.rd, f"(r{ins.rd} & 0xFFFF0000) | {fn}(r{ins.rs1}, r{ins.rs2})")
    return emit


def _i2f(g: BlockCompiler, ins: Instruction) -> None:
    g.set_reg(ins.rd, f"(r{ins.rd} & 0xFFFF0000) | int_to_f16(r{ins.rs1})")


def _f2i(g: BlockCompiler, ins: Instruction) -> None:
    g.set_reg(ins.rd, f"f16_to_int(r{ins.rs1})")


def _math(expression: str, result: str, divides: bool = False
          ) -> Callable[[BlockCompiler, Instruction], None]:
    """Floating point and 64-bit integer instructions: `expression` over {a} and {b}
    (a register, or a pair's 64-bit value) gives a register ("r32"), a pair ("r64") or
    the PSW of a compare ("flags"); the helpers are hsx.isa.fp's."""
    def operand(ins: Instruction, field: str) -> str:
        r = getattr(ins, field)
        return f"(r{r} | r{r + 1} << 32)" if field in ins.op.pairs else f"r{r}"

    def emit(g: BlockCompiler, ins: Instruction) -> None:
        expr = expression.format(a=operand(ins, "rs1"), b=operand(ins, "rs2"))
        if divides:
            g.emit(f"if not {operand(ins, 'rs2')}:")
            with g.indent():
                g.fault(f"divide_fault({g.pc}, {g.rem(g.k)})")
        if result == "flags":
            if g.live.get(g.k):
                g.emit(f"f{g.k} = {expr}")
                g.set_flags("psw", p=f"f{g.k}")
        elif result == "r32":
            g.set_reg(ins.rd, expr)
        else:
            g.emit(f"v{g.k} = {expr}")
            g.set_reg(ins.rd, f"v{g.k} & {M}")
            g.set_reg(ins.rd + 1, f"v{g.k} >> 32")
    return emit


_S32 = "({a} - (({a} & 0x80000000) << 1))"
_S64 = "({a} - (({a} & 0x8000000000000000) << 1))"
_MATH_EMITTERS = {
    **{m: _math(f"{m.lower()}({{a}}, {{b}})", "r32") for m in ("FADDS", "FSUBS", "FMULS",
                                                             "FDIVS")},
    **{m: _math(f"{m.lower()}({{a}}, {{b}})", "r64") for m in ("DADD", "DSUB", "DMUL", "DDIV")},
    "FCMPS": _math("fcmps({a}, {b})", "flags"), "DCMP": _math("dcmp({a}, {b})", "flags"),
    "S2D": _math("s2d({a})", "r64"), "D2S": _math("d2s({a})", "r32"),
    "I2S": _math(f"int_to_s({_S32})", "r32"), "U2S": _math("int_to_s({a})", "r32"),
    "S2I": _math("float_to_int({a}, 32, True, False)", "r32"),
    "S2U": _math("float_to_int({a}, 32, False, False)", "r32"),
    "I2D": _math(f"int_to_d({_S32})", "r64"), "U2D": _math("int_to_d({a})", "r64"),
    "D2I": _math("float_to_int({a}, 32, True, True)", "r32"),
    "D2U": _math("float_to_int({a}, 32, False, True)", "r32"),
    "L2D": _math(f"int_to_d({_S64})", "r64"), "UL2D": _math("int_to_d({a})", "r64"),
    "D2L": _math("float_to_int({a}, 64, True, True)", "r64"),
    "D2UL": _math("float_to_int({a}, 64, False, True)", "r64"),
    "L2S": _math(f"int_to_s({_S64})", "r32"), "UL2S": _math("int_to_s({a})", "r32"),
    "S2L": _math("float_to_int({a}, 64, True, False)", "r64"),
    "S2UL": _math("float_to_int({a}, 64, False, False)", "r64"),
    "MUL64": _math("({a} * {b}) & 0xFFFFFFFFFFFFFFFF", "r64"),
    "DIV64": _math("div64({a}, {b}, True)", "r64", divides=True),
    "DIVU64": _math("{a} // {b}", "r64", divides=True),
    "REM64": _math("rem64({a}, {b}, True)", "r64", divides=True),
    "REMU64": _math("{a} % {b}", "r64", divides=True),
}


def _push(g: BlockCompiler, ins: Instruction) -> None:
    g.emit(f"v = r{ins.rs1}")
    g.push("v")


def _pop(g: BlockCompiler, ins: Instruction) -> None:
    g.emit("sp = r15")
    g.check_stack("sp")
    g.emit("v = W[sp >> 2] if not sp & 3 else U32(mem, sp)[0]")
    if ins.rd == 15:
        g.set_reg(15, "v")                 # POP R15: SP becomes the popped value
    else:
        g.set_reg_unchecked(15, "sp + 4")
        g.set_reg(ins.rd, "v")


def _sdiv(x: int, y: int) -> int:
    """Signed 32-bit division truncating toward zero (operands as u32, y != 0)."""
    x, y = (x ^ 0x80000000) - 0x80000000, (y ^ 0x80000000) - 0x80000000
    q = x // y
    if q < 0 and q * y != x:
        q += 1
    return q & M


def _srem(x: int, y: int) -> int:
    sx, sy = (x ^ 0x80000000) - 0x80000000, (y ^ 0x80000000) - 0x80000000
    q = (_sdiv(x, y) ^ 0x80000000) - 0x80000000
    return (sx - q * sy) & M


def _mulhs(x: int, y: int) -> int:
    return ((((x ^ 0x80000000) - 0x80000000) * ((y ^ 0x80000000) - 0x80000000)) >> 32) & M


EMITTERS: dict[str, Callable[[BlockCompiler, Instruction], None]] = {
    "LDI": _ldi, "LDI32": _ldi, "LDI20": _ldi, "LDIH": _ldi, "MOV": _mov,
    **{name: _load for name in _LOAD_VALUE}, **{name: _store for name in _STORE},
    "ADD": _binary("add", "({x} + {y}) & 0xFFFFFFFF"),
    "ADDI": _binary("add", "({x} + {y}) & 0xFFFFFFFF"),
    "SUB": _binary("sub", "({x} - {y}) & 0xFFFFFFFF"),
    "AND": _binary("logic", "{x} & {y}"), "ANDI": _binary("logic", "{x} & {y}"),
    "OR": _binary("logic", "{x} | {y}"), "ORI": _binary("logic", "{x} | {y}"),
    "XOR": _binary("logic", "{x} ^ {y}"), "XORI": _binary("logic", "{x} ^ {y}"),
    "CMP": _cmp, "CMPI": _cmp,
    "ADC": _with_carry("adc", "({x} + {y} + {c}) & 0xFFFFFFFF"),
    "SBC": _with_carry("sbc", "({x} - {y} - 1 + {c}) & 0xFFFFFFFF"),
    "MUL": _mul, "MULI": _mul,
    "NOT": _logic_result("~{x} & 0xFFFFFFFF"),
    "MULHU": _logic_result("({x} * {y}) >> 32"),
    "MULHS": _logic_result("mulhs({x}, {y})"),
    "DIV": _divide("sdiv({x}, {y})"), "DIVU": _divide("{x} // {y}"),
    "REM": _divide("srem({x}, {y})"), "REMU": _divide("{x} % {y}"),
    "LSL": _shift("LSL"), "LSR": _shift("LSR"), "ASR": _shift("ASR"),
    "LSLI": _shift("LSL"), "LSRI": _shift("LSR"), "ASRI": _shift("ASR"),
    "FADD": _float("f16_add"), "FSUB": _float("f16_sub"), "FMUL": _float("f16_mul"),
    "FDIV": _float("f16_div"), "I2F": _i2f, "F2I": _f2i,
    "PUSH": _push, "POP": _pop,
    **_MATH_EMITTERS,
}
# Every non-system instruction is either straight-line (an emitter) or ends a block
# (compiled by BlockCompiler.transfer).
ENDERS = {m for m, op in BY_MNEMONIC.items() if op.ends_block and op.group is not Group.SYSTEM}
_missing = (set(BY_MNEMONIC) - ENDERS - {m for m, op in BY_MNEMONIC.items()
                                         if op.group is Group.SYSTEM}) ^ set(EMITTERS)
assert not _missing, f"translator and opcode table disagree on {sorted(_missing)}"

_U32 = struct.Struct("<I")
BLOCK_GLOBALS = {
    "U32": _U32.unpack_from, "P32": _U32.pack_into, "Halt": Halt,
    "memory_fault": memory_fault, "stack_fault": stack_fault, "sp_fault": sp_fault,
    "pc_fault": pc_fault, "divide_fault": divide_fault, "sdiv": _sdiv, "srem": _srem,
    "mulhs": _mulhs, "f16_add": f16_add, "f16_sub": f16_sub, "f16_mul": f16_mul,
    "f16_div": f16_div, "int_to_f16": int_to_f16, "f16_to_int": f16_to_int,
    **MATH_FUNCTIONS,
}
