"""The exact interpreter: every code word decoded once, when it first runs, into a
specialised closure.

`op()` executes one instruction and returns the next PC; faults, stops and SVCs are
exceptions (signals.py). No decoding, dict lookup or register copy happens per step.

Implementations come from `BODIES`, a mnemonic -> Python snippet table compiled into
closure factories at import time; an import-time check ties it to the opcode table, so
an opcode without an implementation (or an implementation without an opcode) cannot
exist. The snippets see: `R` register view, `W` word view of memory, `mem`, `ctx`;
fields `d a b` (registers), `imm` (decoded immediate), `u` (imm as u32, or LDI32's
literal); `pc`, `nxt` (following instruction), `T` (static branch target); bounds `lim`
(last legal address for this access width), `SB ST ST4` (stack base, top, top - 4), `MS`
(memory size), `CL` (code length).
"""
from __future__ import annotations

import struct
from functools import cache, partial
from typing import Callable

from hsx.isa import BY_MNEMONIC, Form, Group, Instruction, Pair
from hsx.isa.encoding import FORM_FIELDS
from hsx.isa import fp
from hsx.isa.f16 import f16_add, f16_div, f16_mul, f16_sub, f16_to_int, int_to_f16

from .layout import REGISTER_WINDOW
from .signals import (BreakpointHit, GuestFault, Halt, SvcTrap, Undecoded, divide_fault,
                      illegal_fault, literal_fault, memory_fault, off_end_fault, pc_fault,
                      sp_fault, stack_fault)

Op = Callable[[], int]

# The floating-point and 64-bit helpers the snippets call (hsx.isa.fp).
MATH_FUNCTIONS = {name: getattr(fp, name) for name in (
    "fadds", "fsubs", "fmuls", "fdivs", "fcmps", "dadd", "dsub", "dmul", "ddiv", "dcmp",
    "s2d", "d2s", "int_to_s", "int_to_d", "float_to_int", "div64", "rem64")}


def _access_width(mnemonic: str) -> int:
    """LD/ST move 4 bytes, the B forms 1, the H forms 2 (a trailing S = sign-extend)."""
    return {"": 4, "B": 1, "H": 2}[mnemonic[2:].removesuffix("S")]


# Bytes moved by each load/store, derived from the table's MEMORY group.
MEMORY_WIDTH: dict[str, int] = {op.mnemonic: _access_width(op.mnemonic)
                                for op in BY_MNEMONIC.values() if op.group is Group.MEMORY}

# Branch conditions over p = PSW (Z=1, C=2, N=4, V=8), keyed by mnemonic.
CONDITIONS: dict[str, str] = {
    "JZ": "p & 1", "JNZ": "not p & 1",
    "BEQ": "p & 1", "BNE": "not p & 1",
    "BLT": "(p >> 2 ^ p >> 3) & 1", "BGE": "not (p >> 2 ^ p >> 3) & 1",
    "BGT": "not p & 1 and not (p >> 2 ^ p >> 3) & 1", "BLE": "p & 1 or (p >> 2 ^ p >> 3) & 1",
    "BLTU": "not p & 2", "BGEU": "p & 2", "BGTU": "p & 2 and not p & 1",
    "BLEU": "not p & 2 or p & 1",
}

_ZN = "(r == 0) | ((r >> 29) & 4)"
_ADD_FLAGS = f"ctx.psw = {_ZN} | ((s >> 31) & 2) | ((((x ^ r) & (y ^ r)) >> 28) & 8)"
_SUB_FLAGS = f"ctx.psw = {_ZN} | ((t >= 0) << 1) | ((((x ^ y) & (x ^ r)) >> 28) & 8)"
_SIGNED = ("if x & 0x80000000: x -= 0x100000000\n"
           "if y & 0x80000000: y -= 0x100000000\n")
_LOAD = ("ea = (R[a] + imm) & 0xFFFFFFFF\n"
         "if ea < 256 or ea > lim: raise memory_fault(pc, ea, @WIDTH, MS)\n")
_PUSH = ("if sp < SB or sp > ST4: raise stack_fault(pc, sp, SB, ST)\n"
         "if sp & 3: P32(mem, sp, @VALUE)\n"
         "else: W[sp >> 2] = @VALUE\n"
         "R[15] = sp\n")
_POP = ("if sp < SB or sp > ST4: raise stack_fault(pc, sp, SB, ST)\n"
        "v = W[sp >> 2] if not sp & 3 else U32(mem, sp)[0]\n")
_CHECK_T = "if t & 3 or t >= CL: raise pc_fault(pc, t, CL)\n"


def _indent(text: str, prefix: str) -> str:
    """`textwrap.indent`, without the regexes textwrap compiles at import (start-up)."""
    return "".join(prefix + line if line.strip() else line for line in text.splitlines(True))


def _alu(result: str, flags: str = f"ctx.psw = {_ZN}", write: bool = True) -> str:
    return f"{result}\n" + ("R[d] = r\n" if write else "") + f"{flags}\nreturn nxt"


def _shift(compute: str) -> str:
    return (f"x = R[a]\nsh = @Y & 31\nif sh:\n{_indent(compute, '    ')}\n"
            "else:\n    r = x\n    c = ctx.psw & 2\n"
            f"R[d] = r\nctx.psw = {_ZN} | c\nreturn nxt")


_REG_OR_IMM = {
    "ADD": _alu("x = R[a]\ny = @Y\ns = x + y\nr = s & 0xFFFFFFFF", _ADD_FLAGS),
    "SUB": _alu("x = R[a]\ny = @Y\nt = x - y\nr = t & 0xFFFFFFFF", _SUB_FLAGS),
    "CMP": _alu("x = R[a]\ny = @Y\nt = x - y\nr = t & 0xFFFFFFFF", _SUB_FLAGS, write=False),
    "MUL": _alu("p = R[a] * @Y\nr = p & 0xFFFFFFFF",
                f"ctx.psw = {_ZN} | (10 if p >> 32 else 0)"),
    "AND": _alu("r = R[a] & @Y"),
    "OR": _alu("r = R[a] | @Y"),
    "XOR": _alu("r = R[a] ^ @Y"),
    "LSL": _shift("t = x << sh\nr = t & 0xFFFFFFFF\nc = (t >> 31) & 2"),
    "LSR": _shift("r = x >> sh\nc = ((x >> (sh - 1)) & 1) << 1"),
    "ASR": _shift("sx = x - ((x & 0x80000000) << 1)\nr = (sx >> sh) & 0xFFFFFFFF\n"
                  "c = ((sx >> (sh - 1)) & 1) << 1"),
}
_IMMEDIATE_OF = {"ADD": "ADDI", "AND": "ANDI", "OR": "ORI", "XOR": "XORI", "LSL": "LSLI",
                 "LSR": "LSRI", "ASR": "ASRI", "CMP": "CMPI", "MUL": "MULI"}


def _divide(compute: str) -> str:
    return _alu(f"y = R[b]\nif not y: raise divide_fault(pc)\nx = R[a]\n{compute}")


def _store(put: str) -> str:
    return _LOAD + put + "\nreturn nxt"


def _float(fn: str) -> str:
    return f"R[d] = (R[d] & 0xFFFF0000) | {fn}(R[a], R[b])\nreturn nxt"


# 64-bit operands and results in register pairs Rn:Rn+1 (low word in Rn).
_A64 = "(R[a] | R[a + 1] << 32)"
_B64 = "(R[b] | R[b + 1] << 32)"
_SET64 = "R[d] = v & 0xFFFFFFFF\nR[d + 1] = v >> 32\nreturn nxt"
_S32 = "(R[a] - ((R[a] & 0x80000000) << 1))"                 # Ra as a signed integer
_S64 = f"({_A64} - ((R[a + 1] & 0x80000000) << 33))"        # Ra:Ra+1 signed


def _pair(expression: str) -> str:
    return f"v = {expression}\n{_SET64}"


def _divide64(expression: str) -> str:
    return f"y = {_B64}\nif not y: raise divide_fault(pc)\nv = {expression}\n{_SET64}"


_MATH_BODIES: dict[str, str] = {
    # binary32 in one register, binary64 in a pair
    **{m: f"R[d] = {m.lower()}(R[a], R[b])\nreturn nxt" for m in ("FADDS", "FSUBS", "FMULS",
                                                                  "FDIVS")},
    "FCMPS": "ctx.psw = fcmps(R[a], R[b])\nreturn nxt",
    **{m: _pair(f"{m.lower()}({_A64}, {_B64})") for m in ("DADD", "DSUB", "DMUL", "DDIV")},
    "DCMP": f"ctx.psw = dcmp({_A64}, {_B64})\nreturn nxt",
    # conversions
    "S2D": _pair("s2d(R[a])"),
    "D2S": f"R[d] = d2s({_A64})\nreturn nxt",
    "I2S": f"R[d] = int_to_s({_S32})\nreturn nxt",
    "U2S": "R[d] = int_to_s(R[a])\nreturn nxt",
    "S2I": "R[d] = float_to_int(R[a], 32, True, False)\nreturn nxt",
    "S2U": "R[d] = float_to_int(R[a], 32, False, False)\nreturn nxt",
    "I2D": _pair(f"int_to_d({_S32})"),
    "U2D": _pair("int_to_d(R[a])"),
    "D2I": f"R[d] = float_to_int({_A64}, 32, True, True)\nreturn nxt",
    "D2U": f"R[d] = float_to_int({_A64}, 32, False, True)\nreturn nxt",
    "L2D": _pair(f"int_to_d({_S64})"),
    "UL2D": _pair(f"int_to_d({_A64})"),
    "D2L": _pair(f"float_to_int({_A64}, 64, True, True)"),
    "D2UL": _pair(f"float_to_int({_A64}, 64, False, True)"),
    "L2S": f"R[d] = int_to_s({_S64})\nreturn nxt",
    "UL2S": f"R[d] = int_to_s({_A64})\nreturn nxt",
    "S2L": _pair("float_to_int(R[a], 64, True, False)"),
    "S2UL": _pair("float_to_int(R[a], 64, False, False)"),
    # 64-bit integers
    "MUL64": _pair(f"({_A64} * {_B64}) & 0xFFFFFFFFFFFFFFFF"),
    "DIV64": _divide64(f"div64({_A64}, y, True)"),
    "DIVU64": _divide64(f"{_A64} // y"),
    "REM64": _divide64(f"rem64({_A64}, y, True)"),
    "REMU64": _divide64(f"{_A64} % y"),
}

BODIES: dict[str, str] = {
    # data movement
    "LDI": "R[d] = u\nreturn nxt",
    "LDI32": "R[d] = u\nreturn nxt",
    "LDI20": "R[d] = u\nreturn nxt",
    "LDIH": "R[d] = u\nreturn nxt",
    "MOV": "R[d] = R[a]\nreturn nxt",
    # memory
    "LD": _LOAD + "R[d] = W[ea >> 2] if not ea & 3 else U32(mem, ea)[0]\nreturn nxt",
    "LDB": _LOAD + "R[d] = mem[ea]\nreturn nxt",
    "LDBS": _LOAD + "v = mem[ea]\nR[d] = v | 0xFFFFFF00 if v & 0x80 else v\nreturn nxt",
    "LDH": _LOAD + "R[d] = mem[ea] | (mem[ea + 1] << 8)\nreturn nxt",
    "LDHS": _LOAD + "v = mem[ea] | (mem[ea + 1] << 8)\n"
                    "R[d] = v | 0xFFFF0000 if v & 0x8000 else v\nreturn nxt",
    "ST": _store("v = R[b]\nif ea & 3: P32(mem, ea, v)\nelse: W[ea >> 2] = v"),
    "STB": _store("mem[ea] = R[b] & 0xFF"),
    "STH": _store("v = R[b]\nmem[ea] = v & 0xFF\nmem[ea + 1] = (v >> 8) & 0xFF"),
    # integer arithmetic and logic
    **{m: body.replace("@Y", "R[b]") for m, body in _REG_OR_IMM.items()},
    **{_IMMEDIATE_OF[m]: body.replace("@Y", "u") for m, body in _REG_OR_IMM.items()
       if m in _IMMEDIATE_OF},
    "ADC": _alu("x = R[a]\ny = R[b]\ns = x + y + ((ctx.psw >> 1) & 1)\nr = s & 0xFFFFFFFF",
                _ADD_FLAGS),
    "SBC": _alu("x = R[a]\ny = R[b]\nt = x - y - 1 + ((ctx.psw >> 1) & 1)\n"
                "r = t & 0xFFFFFFFF", _SUB_FLAGS),
    "NOT": _alu("r = ~R[a] & 0xFFFFFFFF"),
    "DIV": _divide(_SIGNED + "q = abs(x) // abs(y)\nif (x < 0) != (y < 0): q = -q\n"
                   "r = q & 0xFFFFFFFF"),
    "DIVU": _divide("r = x // y"),
    "REM": _divide(_SIGNED + "m = abs(x) % abs(y)\nif x < 0: m = -m\nr = m & 0xFFFFFFFF"),
    "REMU": _divide("r = x % y"),
    "MULHU": _alu("r = (R[a] * R[b]) >> 32"),
    "MULHS": _alu("x = R[a]\ny = R[b]\n" + _SIGNED + "r = ((x * y) >> 32) & 0xFFFFFFFF"),
    # control flow (TAKE / TARGET are filled in per variant, see _VARIANTS)
    "JMP": "@TAKE", "BR": "@TAKE",
    **{m: f"p = ctx.psw\nif {cond}:\n    @TAKE\nreturn nxt" for m, cond in CONDITIONS.items()},
    "CALL": "@TARGET" + _PUSH.replace("@VALUE", "nxt") + "return t",
    "LCALL": "@TARGET" + _PUSH.replace("@VALUE", "nxt") + "return t",
    "CALLR": "t = R[a]\n" + _CHECK_T + "sp = R[15] - 4\n" + _PUSH.replace("@VALUE", "nxt")
             + "return t",
    "JMPR": "t = R[a]\n" + _CHECK_T + "return t",
    "RET": ("sp = R[15]\nif sp == ST: raise Halt('returned', pc, pc)\n" + _POP
            + "t = v\n" + _CHECK_T + "R[15] = sp + 4\nreturn t"),
    # stack
    "PUSH": "v = R[a]\nsp = R[15] - 4\n" + _PUSH.replace("@VALUE", "v") + "return nxt",
    "POP": "sp = R[15]\n" + _POP + "R[15] = sp + 4\nR[d] = v\nreturn nxt",
    # system
    "SVC": "raise SvcTrap(pc, (u >> 8) & 0xF, u & 0xFF)",
    "BRK": "raise Halt('brk', pc, nxt, u)",
    # half-precision float
    "FADD": _float("f16_add"), "FSUB": _float("f16_sub"), "FMUL": _float("f16_mul"),
    "FDIV": _float("f16_div"),
    "I2F": "R[d] = (R[d] & 0xFFFF0000) | int_to_f16(R[a])\nreturn nxt",
    "F2I": "R[d] = f16_to_int(R[a])\nreturn nxt",
    **_MATH_BODIES,
}

_missing = set(BY_MNEMONIC) ^ set(BODIES)
assert not _missing, f"interpreter and opcode table disagree on {sorted(_missing)}"

# Placeholder substitutions for instructions whose target is known at decode time
# ("ok" / "bad": statically valid / invalid) or read from a register ("dyn").
_VARIANTS = {
    "ok": {"@TAKE": "return T", "@TARGET": "t = T\nsp = R[15] - 4\n"},
    "bad": {"@TAKE": "raise pc_fault(pc, T, CL)", "@TARGET": "raise pc_fault(pc, T, CL)\n"},
    "dyn": {"@TARGET": "t = (R[a] + 4 * imm) & 0xFFFFFFFF\n" + _CHECK_T + "sp = R[15] - 4\n"},
}

_U32 = struct.Struct("<I")
_GLOBALS = {
    "U32": _U32.unpack_from, "P32": _U32.pack_into, "Halt": Halt, "SvcTrap": SvcTrap,
    "memory_fault": memory_fault, "stack_fault": stack_fault, "pc_fault": pc_fault,
    "divide_fault": divide_fault, "f16_add": f16_add, "f16_sub": f16_sub,
    "f16_mul": f16_mul, "f16_div": f16_div, "int_to_f16": int_to_f16,
    "f16_to_int": f16_to_int, **MATH_FUNCTIONS,
}
_PARAMS = "ctx, R, W, mem, d, a, b, imm, u, pc, nxt, T, lim, SB, ST, ST4, MS, CL"


def _compile(name: str, body: str) -> Callable[..., Op]:
    source = (f"def factory({_PARAMS}):\n    def op():\n{_indent(body, ' ' * 8)}\n"
              "    return op\n")
    namespace = dict(_GLOBALS)
    exec(compile(source, f"<hsx.vm.interp:{name}>", "exec"), namespace)
    return namespace["factory"]


def _variants(form: Form) -> tuple[str, ...]:
    if form is Form.CALL12:
        return ("ok", "bad", "dyn")
    if form in (Form.ABS12, Form.REL24):
        return ("ok", "bad")
    return ("ok",)


@cache
def factory(mnemonic: str, variant: str) -> Callable[..., Op]:
    """The closure factory of one instruction variant, compiled when a program first
    uses it (all ~120 at import cost every hsx process ~10 ms, the native engine's too)."""
    text = BODIES[mnemonic].replace("@WIDTH", str(MEMORY_WIDTH.get(mnemonic, 4)))
    for key, value in _VARIANTS[variant].items():
        text = text.replace(key, value)
    return _compile(f"{mnemonic}/{variant}", text)


_WRITES_RD = frozenset(form for form, fields in FORM_FIELDS.items() if "rd" in fields)


def static_target(ins: Instruction, pc: int) -> int | None:
    """Branch target known at decode time (None: none, or taken from a register)."""
    form = ins.op.form
    if form is Form.ABS12:
        return ins.imm
    if form is Form.REL24 or (form is Form.CALL12 and ins.rs1 == 0):
        return (pc + 4 * ins.imm) & 0xFFFFFFFF
    return None


def valid_target(target: int, code_len: int) -> bool:
    return not target & 3 and target < code_len


def writes_sp(ins: Instruction) -> bool:
    """The instruction's result lands in R15 (SP): Rd = R15, or a pair R14:R15."""
    if ins.op.form not in _WRITES_RD:
        return False
    return ins.rd == 15 or (ins.rd == 14 and "rd" in ins.op.pairs)


def build_op(ctx, pc: int, ins: Instruction | Pair | None) -> Op:
    """The closure executing the instruction (or pair) `ins` located at `pc` in `ctx`."""
    if ins is None:
        return _raiser(lambda: illegal_fault(pc, int.from_bytes(ctx.image.code[pc:pc + 4], "big")))
    if type(ins) is Pair:
        return _pair_op(ctx, pc, ins)
    lay, cl = ctx.layout, ctx.code_len
    nxt = pc + ins.size
    target = static_target(ins, pc)
    if ins.op.form is Form.RD_IMM32:
        variant = "ok" if nxt <= cl else "bad"
        target = pc + 4                 # the missing literal word
    elif target is not None:
        variant = "ok" if valid_target(target, cl) else "bad"
    else:
        variant = "dyn" if ins.op.form is Form.CALL12 else "ok"
    if ins.op.form is Form.RD_IMM32 and variant == "bad":
        return _raiser(lambda: literal_fault(pc, cl))
    width = MEMORY_WIDTH.get(ins.op.mnemonic, 4)
    op = factory(ins.op.mnemonic, variant)(
        ctx, ctx.regs, ctx.words, ctx.mem, ins.rd, ins.rs1, ins.rs2, ins.imm,
        ins.imm & 0xFFFFFFFF, pc, nxt, target, lay.mem_size - width, lay.stack_base,
        lay.stack_top, lay.stack_top - 4, lay.mem_size, cl)
    if writes_sp(ins):
        return _guard_sp(ctx, pc, op)
    return op


def _pair_op(ctx, pc: int, pair: Pair) -> Op:
    """A compact pair's closure: its first operation, then its second, one step.  Each
    half is the closure its instruction would have at the pair's address (so a branch
    is relative to the pair, RET and every check work as they do alone) and returns the
    pair's next PC.

    A fault or a return stop out of the second half leaves the first half's effects in
    place, as the ISA says.  The exception then carries `undo` (signals.py), which takes
    them back for a caller that runs the pair again rather than taking the stop as it is
    (`Machine.run_interleaved` and a traced run stop *before* a trapping instruction).
    What it needs is saved before each run of the pair whose second half can stop: the
    register window, PSW and the bytes a storing first half writes over."""
    first, second = build_op(ctx, pc, pair.first), build_op(ctx, pc, pair.second)
    op = _compose(ctx, pc, pair, first, second)
    op.halves = (first, second)         # what a traced run runs, one at a time
    return op


def _compose(ctx, pc: int, pair: Pair, first: Op, second: Op) -> Op:
    """`_pair_op`'s closure, saving what `undo` needs only when the second can stop."""
    if not _may_stop(pair.second, pc, ctx.code_len):
        def both() -> int:
            first()
            return second()
        return both
    mem = ctx.mem
    window = register_window(ctx)
    store = _stored_bytes(ctx, pair.first)
    if store is None:
        def undoable() -> int:
            registers, psw = mem[window], ctx.psw
            first()
            try:
                return second()
            except (GuestFault, Halt) as stop:
                stop.undo = partial(restore_before_pair, ctx, window, registers, psw)
                raise
        return undoable
    width = store[1]

    def undoable_store() -> int:
        registers, psw = mem[window], ctx.psw
        at = store[0]()
        old = mem[at:at + width]
        first()
        try:
            return second()
        except (GuestFault, Halt) as stop:
            stop.undo = partial(restore_before_pair, ctx, window, registers, psw,
                                slice(at, at + width), old)
            raise
    return undoable_store


def _may_stop(ins: Instruction, pc: int, code_len: int) -> bool:
    """Whether a pair's second operation can fault or stop (memory and stack accesses,
    RET, writes to SP, a branch to an impossible target); the others cannot."""
    if ins.op.group is Group.MEMORY or ins.op.mnemonic in ("PUSH", "POP", "RET"):
        return True
    target = static_target(ins, pc)
    return writes_sp(ins) or (target is not None and not valid_target(target, code_len))


def _stored_bytes(ctx, ins: Instruction) -> tuple[Callable[[], int], int] | None:
    """(address before it runs, width) of the memory a pair's first operation stores to."""
    R = ctx.regs
    if ins.op.mnemonic == "PUSH":
        return (lambda: R[15] - 4), 4
    if ins.op.form is Form.MEM_RS:
        base, offset = ins.rs1, ins.imm
        return (lambda: (R[base] + offset) & 0xFFFFFFFF), MEMORY_WIDTH[ins.op.mnemonic]
    return None


def register_window(ctx) -> slice:
    """Where a context's registers are in its memory."""
    return slice(ctx.layout.reg_base, ctx.layout.reg_base + REGISTER_WINDOW)


def restore_before_pair(ctx, window: slice, registers: bytes | bytearray, psw: int,
                        stored: slice | None = None, old: bytes | bytearray | None = None) -> None:
    """Put back the state from before a pair whose first operation ran: the register
    window, PSW and the bytes (`stored`) that operation wrote over."""
    if stored is not None:
        ctx.mem[stored] = old
    ctx.mem[window] = registers
    ctx.psw = psw


def build_ops(ctx) -> list[Op]:
    """The dispatch table: one entry per code word, `undecoded` until the word first
    runs (`decode_op` builds its closure then), plus a sentinel for running off the end
    of the code."""
    ops: list[Op] = [undecoded] * len(ctx.decoded)
    ops.append(_raiser(lambda: off_end_fault(ctx.code_len)))
    return ops


def undecoded() -> int:
    """Dispatch-table filler: tells the run loop to build this word's closure first."""
    raise Undecoded


def decode_op(ctx, index: int) -> Op:
    """The closure of code word `index`, built now if it was not yet (and put in the
    interpreter's table too, unless a breakpoint holds that entry)."""
    op = ctx.ops[index]
    if op is undecoded:
        op = ctx.ops[index] = build_op(ctx, 4 * index, ctx.decoded[index])
        if ctx.itab[index] is undecoded:
            ctx.itab[index] = op
    return op


def _guard_sp(ctx, pc: int, op: Op) -> Op:
    """Wrap an instruction writing R15 (SP): a value outside [stack_base, stack_top]
    faults and undoes the instruction (it can only have changed R15, R14 when it writes
    a pair, and PSW)."""
    R, base, top = ctx.regs, ctx.layout.stack_base, ctx.layout.stack_top

    def guarded() -> int:
        old_r14, old_sp, old_psw = R[14], R[15], ctx.psw
        nxt = op()
        sp = R[15]
        if sp < base or sp > top:
            R[14], R[15], ctx.psw = old_r14, old_sp, old_psw
            raise sp_fault(pc, sp, base, top)
        return nxt
    return guarded


def _raiser(fault: Callable[[], GuestFault]) -> Op:
    """An entry that can only fault: an illegal word, a missing literal, the end."""
    def op() -> int:
        raise fault()
    return op


def breakpoint_op(pc: int) -> Op:
    """Dispatch-table entry for a breakpoint: stop before the instruction executes."""
    def hit() -> int:
        raise BreakpointHit(pc)
    return hit
