"""Random guest programs for the differential tests (Python interpreter vs translator vs
the native engine): straight-line runs, counted loops, calls and random branches over the
ALU, memory, stack and branch instructions, and raw words of every opcode."""
from __future__ import annotations

import io

from hypothesis import strategies as st

from hsx.isa import BY_MNEMONIC, Form, Group, encode, make
from hsx.isa.encoding import FORM_FIELDS
from vmkit import image, machine

MEM = 0x8000
REG_BASE = MEM - 64
DATA = 0x2000

BINARY = sorted(m for m, op in BY_MNEMONIC.items()
                if op.form is Form.RD_RS_RS and op.group in (Group.ALU, Group.FLOAT))
IMMEDIATE = sorted(m for m, op in BY_MNEMONIC.items() if op.form is Form.RD_RS_IMM)
LOADS = sorted(m for m, op in BY_MNEMONIC.items() if op.form is Form.RD_MEM)
STORES = sorted(m for m, op in BY_MNEMONIC.items() if op.form is Form.MEM_RS)
MATH = sorted(m for m, op in BY_MNEMONIC.items()
              if op.group in (Group.SINGLE, Group.DOUBLE, Group.CONVERT, Group.INT64))
CONDITIONAL = sorted(m for m, op in BY_MNEMONIC.items()
                     if op.form is Form.REL24 and op.reads_flags)

reg = st.integers(0, 12)                      # R13 = data base, R14 = window base
imm12 = st.one_of(st.integers(-8, 8), st.integers(-2048, 2047))


@st.composite
def straight(draw):
    """One non-branching instruction (as words)."""
    kind = draw(st.sampled_from(["bin", "bin", "imm", "imm", "cmp", "load", "store", "window",
                                 "ldi", "mov", "stack", "unary", "sp", "math"]))
    if kind == "math":                # floating point / 64-bit, register pairs below R11
        op = BY_MNEMONIC[draw(st.sampled_from(MATH))]
        pair = st.integers(0, 10)
        return make(op.mnemonic, **{f: draw(pair) for f in ("rd", "rs1", "rs2")
                                    if f in FORM_FIELDS[op.form]})
    if kind == "bin":
        return make(draw(st.sampled_from(BINARY)), draw(reg), draw(reg), draw(reg))
    if kind == "imm":
        return make(draw(st.sampled_from(IMMEDIATE)), draw(reg), draw(reg), imm=draw(imm12))
    if kind == "cmp":
        if draw(st.booleans()):
            return make("CMP", rs1=draw(reg), rs2=draw(reg))
        return make("CMPI", rs1=draw(reg), imm=draw(imm12))
    if kind in ("load", "store", "window"):
        base = {"window": 14}.get(kind, draw(st.sampled_from([13, 13, 13, 12])))
        off = draw(st.integers(-4, 70)) if kind == "window" else draw(st.integers(-8, 64))
        if kind == "load" or (kind == "window" and draw(st.booleans())):
            return make(draw(st.sampled_from(LOADS)), rd=draw(reg), rs1=base, imm=off)
        return make(draw(st.sampled_from(STORES)), rs1=base, rs2=draw(reg), imm=off)
    if kind == "ldi":
        form = draw(st.sampled_from(["LDI", "LDI20", "LDIH", "LDI32"]))
        if form == "LDI":
            return make("LDI", draw(reg), imm=draw(imm12))
        if form == "LDI20":
            return make("LDI20", draw(reg), imm=draw(st.integers(-(1 << 19), (1 << 19) - 1)))
        if form == "LDIH":
            return make("LDIH", draw(reg), imm=draw(st.integers(0, 0xFFFFF)) << 12)
        return make("LDI32", draw(reg), imm=draw(st.integers(0, 0xFFFFFFFF)))
    if kind == "mov":
        return make("MOV", draw(reg), draw(reg))
    if kind == "unary":
        return make(draw(st.sampled_from(["NOT", "I2F", "F2I"])), draw(reg), draw(reg))
    if kind == "stack":
        return (make("PUSH", rs1=draw(reg)) if draw(st.booleans())
                else make("POP", rd=draw(reg)))
    # sp: instructions writing R15, mostly legal
    return draw(st.sampled_from([make("ADDI", 15, 15, imm=-8), make("ADDI", 15, 15, imm=8),
                                 make("MOV", 15, draw(reg)), make("ADDI", 15, 15, imm=-4096 // 2)]))


@st.composite
def program(draw):
    """Words of a program made of straight runs, counted loops and random branches."""
    words: list[int] = []
    for _ in range(draw(st.integers(1, 6))):
        shape = draw(st.sampled_from(["run", "loop", "loop", "branch", "call"]))
        if shape == "call":
            # CALL a subroutine placed right after a BR that skips it; its body may
            # unbalance the stack, so the predicted return address can be wrong.
            body = [w for ins in draw(st.lists(straight(), max_size=4)) for w in encode(ins)]
            body += encode(make("RET"))
            words += encode(make("CALL", imm=2)) + encode(make("BR", imm=len(body) + 1)) + body
        elif shape == "run":
            for ins in draw(st.lists(straight(), min_size=1, max_size=6)):
                words += encode(ins)
        elif shape == "loop":
            counter = 11
            words += encode(make("LDI", counter, imm=draw(st.integers(1, 5))))
            body_start = len(words)
            for ins in draw(st.lists(straight(), max_size=4)):
                if 11 not in (ins.rd,):
                    words += encode(ins)
            words += encode(make("ADDI", counter, counter, imm=-1))
            closing = draw(st.sampled_from(["BNE", "JNZ", "BGT", "BGTU"]))
            if closing != "JNZ":
                words += encode(make("CMPI", rs1=counter, imm=0))
            back = body_start - len(words)
            words += encode(make(closing, imm=4 * body_start if closing == "JNZ" else back))
        else:
            name = draw(st.sampled_from(CONDITIONAL + ["BR", "JZ", "JNZ", "JMP", "JMPR", "CALLR",
                                                       "CALL", "CALL", "LCALL", "RET"]))
            if name in ("JMPR", "CALLR"):
                words += encode(make(name, rs1=draw(reg)))
            elif name == "RET":
                words += encode(make(name))
            elif name in ("JZ", "JNZ", "JMP"):
                words += encode(make(name, imm=4 * draw(st.integers(0, len(words) + 4))))
            else:
                words += encode(make(name, imm=draw(st.integers(-len(words), 4))))
    words += encode(make("RET"))
    return words


def fresh(words, translate, regs, data):
    # Quiet, and never sleeping for real: a branch into an LDI32's immediate word runs
    # random bits, which may be an SVC writing output or sleeping for up to 49 days.
    m = machine(translate, stdout=io.BytesIO(), stderr=io.BytesIO(), sleep=lambda seconds: None)
    ctx = m.create_context(image(words), mem_size=MEM, stack_size=0x400)
    for i, value in enumerate(regs):
        m.write_register(ctx, i, value)
    m.write_register(ctx, 12, DATA + 0x100)
    m.write_register(ctx, 13, DATA)
    m.write_register(ctx, 14, REG_BASE)
    m.write_memory(ctx, DATA, data)
    return m, ctx


def snapshot(ctx):
    return (ctx.regs.tolist(), ctx.psw, bytes(ctx.mem), ctx.pc, ctx.steps, ctx.state,
            ctx.fault, ctx.exit_status)


@st.composite
def raw_program(draw):
    """Any opcode of the table with arbitrary field bits (every form, SVC and BRK too)."""
    codes = sorted(op.code for op in BY_MNEMONIC.values())
    words = [(draw(st.sampled_from(codes)) << 24) | draw(st.integers(0, 0xFFFFFF))
             for _ in range(draw(st.integers(1, 24)))]
    return words
