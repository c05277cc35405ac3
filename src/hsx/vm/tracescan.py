"""Which instructions a translated block holds, and what each of them touches
(registers read and written, flags, faults): the analysis the block compiler works from.
"""
from __future__ import annotations

from hsx.isa import BY_MNEMONIC, Flags, Form, Group, Instruction, operations
from hsx.isa.encoding import FORM_FIELDS

from .interp import static_target, valid_target

MAX_BLOCK = 128         # operations in one trace (a pair's two count two)


STACK_USERS = frozenset({"PUSH", "POP", "CALL", "LCALL", "CALLR", "RET"})
DIVIDES = frozenset({"DIV", "DIVU", "REM", "REMU", "DIV64", "DIVU64", "REM64", "REMU64"})
CALLS = frozenset({"CALL", "LCALL"})
CONDITIONS = {"JZ": "EQ", "JNZ": "NE", "BEQ": "EQ", "BNE": "NE", "BLT": "LT", "BGE": "GE",
         "BGT": "GT", "BLE": "LE", "BLTU": "LTU", "BGEU": "GEU", "BGTU": "GTU",
         "BLEU": "LEU"}
assert set(STACK_USERS | DIVIDES | CALLS | set(CONDITIONS)) <= set(BY_MNEMONIC)


def translatable(ctx, pc: int, ins: Instruction | None) -> bool:
    """SVC, BRK, illegal words, a LDI32 cut off by the end of code and branches to
    impossible static targets are left to the interpreter."""
    if ins is None or ins.op.group is Group.SYSTEM:
        return False
    if ins.rd == 14 and "rd" in ins.op.pairs:       # a result pair ending in SP
        return False
    if pc + ins.size > ctx.code_len:
        return False
    target = static_target(ins, pc)
    return target is None or valid_target(target, ctx.code_len)


def collect_trace(ctx, start: int) -> list[tuple[int, Instruction]]:
    """The trace starting at `start` (see the module docstring), as (pc, instruction)
    per operation: a compact pair is its two operations, both at the pair's address."""
    instrs: list[tuple[int, Instruction]] = []
    seen: set[int] = set()
    returns: list[int] = []                     # return addresses of followed calls
    pc = start
    while len(instrs) < MAX_BLOCK and pc < ctx.code_len and pc not in seen:
        if instrs and pc in ctx.breakpoints:
            break
        ops = operations(ctx.decoded[pc >> 2])
        if not ops or not all(translatable(ctx, pc, op) for op in ops):
            break
        instrs.extend((pc, op) for op in ops)   # a pair: both halves at its address
        seen.add(pc)
        ins = ops[-1]                           # the one that decides where control goes
        name = ins.op.mnemonic
        target = static_target(ins, pc)
        if name in CONDITIONS and target == start:
            break                               # a loop's back-edge: one iteration per pass
        if not ins.op.ends_block or name in CONDITIONS:
            pc += ins.size                      # straight on / fall-through side
            continue
        if name == "RET" and returns:
            pc = returns.pop()                  # predicted; checked when it runs
            continue
        if target is None:                      # RET, JMPR, CALLR, CALL Ra: ends here
            break
        if name in CALLS:
            returns.append(pc + 4)
        pc = target                             # JMP, BR, CALL, LCALL: follow
    return instrs


def reads(ins: Instruction) -> set[int]:
    fields = FORM_FIELDS[ins.op.form]
    regs = set()
    if "rs1" in fields and not (ins.op.form is Form.CALL12 and ins.rs1 == 0):
        regs.add(ins.rs1)
    if "rs2" in fields:
        regs.add(ins.rs2)
    regs |= {getattr(ins, f) + 1 for f in ins.op.pairs if f != "rd"}
    if ins.op.group is Group.FLOAT and ins.op.mnemonic != "F2I":
        regs.add(ins.rd)                  # only the low half of Rd is replaced
    if ins.op.mnemonic in STACK_USERS:
        regs.add(15)
    return regs


def writes(ins: Instruction) -> set[int]:
    regs = {ins.rd} if "rd" in FORM_FIELDS[ins.op.form] else set()
    if "rd" in ins.op.pairs:
        regs.add(ins.rd + 1)
    if ins.op.mnemonic in STACK_USERS:
        regs.add(15)
    return regs


def reads_flags(ins: Instruction) -> bool:
    """Reads PSW before updating it: branches, ADC/SBC, and shifts that may keep C."""
    if ins.op.reads_flags:
        return True
    if ins.op.flags is Flags.SHIFT:
        return ins.op.form is Form.RD_RS_RS or not ins.imm & 31
    return False


def may_fault(ins: Instruction) -> bool:
    name = ins.op.mnemonic
    return (ins.op.group is Group.MEMORY or name in STACK_USERS or name in DIVIDES
            or name == "JMPR" or 15 in writes(ins))
