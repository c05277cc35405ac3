"""`float`, `double` and 64-bit division on the VM's own instructions (docs/isa.md,
"Floating point and 64-bit integers") instead of calls into the soft-float library.

Each operation puts its operands in fixed registers from R0 upward (a 64-bit value in a
pair, low word first), runs one instruction with its result in R0 (R0:R1), and copies
the result out (a result that feeds the next operation's first operand stays where it
is): a few moves around one instruction, where the library routine cost
hundreds to thousands. The register allocator sees the fixed registers as it sees a
call's, but nothing else is clobbered. `hsx cc --soft-float` keeps the library calls
(for a VM without these instructions); the results are the same either way.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from ..mir import R, VReg

if TYPE_CHECKING:
    from .core import SelectorBase as Selector

ARITHMETIC = {("fadd", 32): "FADDS", ("fsub", 32): "FSUBS", ("fmul", 32): "FMULS",
              ("fdiv", 32): "FDIVS", ("fadd", 64): "DADD", ("fsub", 64): "DSUB",
              ("fmul", 64): "DMUL", ("fdiv", 64): "DDIV"}
DIVISION64 = {"sdiv": "DIV64", "udiv": "DIVU64", "srem": "REM64", "urem": "REMU64"}
# fcmp predicate -> the branch taken when it holds, after FCMPS/DCMP (less: N; equal: Z C;
# greater: C; unordered: C V). ord, uno, one and ueq keep the library compare.
BRANCHES = {"oeq": "BEQ", "une": "BNE", "olt": "BLTU", "ole": "BLEU", "ogt": "BGT",
            "oge": "BGE", "ult": "BLT", "ule": "BLE", "ugt": "BGTU", "uge": "BGEU"}
# (float bits, integer bits > 32, signed) -> conversion mnemonic
TO_INT = {(32, False, True): "S2I", (32, False, False): "S2U", (64, False, True): "D2I",
          (64, False, False): "D2U", (32, True, True): "S2L", (32, True, False): "S2UL",
          (64, True, True): "D2L", (64, True, False): "D2UL"}
FROM_INT = {(32, False, True): "I2S", (32, False, False): "U2S", (64, False, True): "I2D",
            (64, False, False): "U2D", (32, True, True): "L2S", (32, True, False): "UL2S",
            (64, True, True): "L2D", (64, True, False): "UL2D"}


def machine_op(sel: Selector, text: Callable[..., list[str]], operands: list[list[VReg]],
               result_words: int) -> list[VReg]:
    """Run `text(r1, r2, …)` (MVASM lines; rN = the first register of operand N) with
    the operands placed from R0 upward; the result words from R0 as new vregs."""
    firsts, uses, next_reg = [], [], 0
    for words in operands:
        firsts.append(next_reg)
        for word in words:
            sel.mov(R[next_reg], word)
            uses.append(R[next_reg])
            next_reg += 1
    results = list(R[0:result_words])
    sel.emit("asm", results, uses, (text(*firsts),))
    out = []
    for preg in results:
        d = sel.new()
        sel.mov(d, preg)
        out.append(d)
    return out


def arithmetic(sel: Selector, opcode: str, bits: int, a: list[VReg], b: list[VReg]) -> list[VReg]:
    mnemonic = ARITHMETIC[opcode, bits]
    return machine_op(sel, lambda x, y: [f"{mnemonic} R0, R{x}, R{y}"], [a, b], bits // 32)


def compare(sel: Selector, pred: str, bits: int, a: list[VReg], b: list[VReg]) -> VReg:
    """0 or 1 for an fcmp predicate that BRANCHES covers."""
    sel.label_count += 1
    skip = f".L{sel.mf.symbol}.fcmp{sel.label_count}"
    mnemonic = "DCMP" if bits == 64 else "FCMPS"
    (result,) = machine_op(sel, lambda x, y: [
        f"{mnemonic} R{x}, R{y}", "LDI R0, 1", f"{BRANCHES[pred]} {skip}", "LDI R0, 0",
        f"{skip}:"], [a, b], 1)
    sel.known[result] = ("z", 1)
    return result


def convert(sel: Selector, mnemonic: str, value: list[VReg], result_words: int) -> list[VReg]:
    return machine_op(sel, lambda x: [f"{mnemonic} R0, R{x}"], [value], result_words)


def divide64(sel: Selector, opcode: str, a: list[VReg], b: list[VReg]) -> list[VReg]:
    mnemonic = DIVISION64[opcode]
    return machine_op(sel, lambda x, y: [f"{mnemonic} R0, R{x}, R{y}"], [a, b], 2)
