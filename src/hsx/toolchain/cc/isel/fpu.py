"""`float`, `double` and 64-bit division on the VM's own instructions (docs/isa.md,
"Floating point and 64-bit integers") instead of calls into the soft-float library.

Each operation is one instruction on virtual registers: a 64-bit operand or result is
a register pair `Rn:Rn+1` (low word first), which the register allocator places
anywhere (pairs.py), so a result feeds the next operation where it is.  Where the
library routine cost hundreds to thousands of instructions, an operation costs one and
clobbers nothing. `hsx cc --soft-float` keeps the library calls (for a VM without these
instructions); the results are the same either way.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..mir import VReg

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
NEGATED = {"oeq": "une", "une": "oeq", "olt": "uge", "uge": "olt", "ole": "ugt",
           "ugt": "ole", "ogt": "ule", "ule": "ogt", "oge": "ult", "ult": "oge"}
# (float bits, integer bits > 32, signed) -> conversion mnemonic
TO_INT = {(32, False, True): "S2I", (32, False, False): "S2U", (64, False, True): "D2I",
          (64, False, False): "D2U", (32, True, True): "S2L", (32, True, False): "S2UL",
          (64, True, True): "D2L", (64, True, False): "D2UL"}
FROM_INT = {(32, False, True): "I2S", (32, False, False): "U2S", (64, False, True): "I2D",
            (64, False, False): "U2D", (32, True, True): "L2S", (32, True, False): "UL2S",
            (64, True, True): "L2D", (64, True, False): "UL2D"}


def machine_op(sel: Selector, mnemonic: str, operands: list[list[VReg]],
               result_words: int) -> list[VReg]:
    """`MNEMONIC Rd, Ra[, Rb]` with each operand of two words a pair (likewise the
    result); the result's words as new vregs."""
    uses, firsts, pairs = [], [], []
    for words in operands:
        firsts.append(len(uses))
        if len(words) == 2:
            pairs.append(("u", len(uses)))
        uses.extend(words)
    results = [sel.new() for _ in range(result_words)]
    if result_words == 2:
        pairs.append(("d", 0))
    sel.emit("pairop", results, uses, (mnemonic, tuple(firsts))).pairs = tuple(pairs)
    return results


def arithmetic(sel: Selector, opcode: str, bits: int, a: list[VReg], b: list[VReg]) -> list[VReg]:
    return machine_op(sel, ARITHMETIC[opcode, bits], [a, b], bits // 32)


def compare(sel: Selector, pred: str, bits: int, a: list[VReg], b: list[VReg]) -> VReg:
    """0 or 1 for an fcmp predicate that BRANCHES covers."""
    result = sel.new()
    mnemonic, pairs = _compare_op(bits)
    sel.emit("fcmp", [result], a + b, (mnemonic, len(a), BRANCHES[pred])).pairs = pairs
    sel.known[result] = ("z", 1)
    return result


def compare_branch(sel: Selector, pred: str, bits: int, a: list[VReg], b: list[VReg],
                   t, f) -> None:
    """Branch to `t` when the fcmp predicate holds, else to `f` (emit.py: `fcbr`)."""
    mnemonic, pairs = _compare_op(bits)
    sel.emit("fcbr", [], a + b, (mnemonic, len(a), BRANCHES[pred], BRANCHES[NEGATED[pred]],
                                 t, f)).pairs = pairs


def _compare_op(bits: int) -> tuple[str, tuple]:
    """The compare instruction for `bits`-wide floats, and which operands are pairs."""
    return ("DCMP", (("u", 0), ("u", 2))) if bits == 64 else ("FCMPS", ())


def convert(sel: Selector, mnemonic: str, value: list[VReg], result_words: int) -> list[VReg]:
    return machine_op(sel, mnemonic, [value], result_words)


def divide64(sel: Selector, opcode: str, a: list[VReg], b: list[VReg]) -> list[VReg]:
    return machine_op(sel, DIVISION64[opcode], [a, b], 2)


def multiply64(sel: Selector, a: list[VReg], b: list[VReg]) -> list[VReg]:
    return machine_op(sel, "MUL64", [a, b], 2)
