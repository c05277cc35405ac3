"""What a task's code space holds: instruction boundaries, calls and functions.

Built once per task from the machine's pre-decoded words (never from data memory), so
the stack walker, the stepper, the breakpoints and the disassembler agree on where
instructions and functions start — also for an image without a symbol file.

A *function* is not every label: MVASM and the C compiler put labels on loop heads and
branch targets too.  Function starts are the entry point, the targets of direct calls, command
handlers, exported code labels and labels that begin with the ABI prologue (`PUSH R14; MOV R14,
R15`).  Labels starting with "." (the C compiler's block labels) never start a function.

Code is read as operations where it matters how registers change (the prologue, SP
moves): a compact pair is one instruction address holding two operations (`ADD R1, R1,
R2 | LD R3, [R14+8]`), both done when the PC is past it.
"""
from __future__ import annotations

import bisect
from dataclasses import dataclass
from typing import Iterator, Sequence

from hsx.image.sym import SymbolTable
from hsx.isa import Instruction, Pair, last_operation, operations
from hsx.isa.encoding import FORM_FIELDS

CALLS = frozenset({"CALL", "LCALL", "CALLR"})
CALL_SIZE = 4                 # every call instruction is one word
FP, SP = 14, 15


def frame_code_pc(pc: int, index: int) -> int:
    """The code address that says where frame `index` is: its pc for the innermost frame;
    for a caller, whose pc is a return address, the call instruction just before it.  A
    call that ends its source line (or its function) returns to the next line's (or
    function's) code, so the return address would name the wrong line: gdb looks up
    pc - 1 for the same reason."""
    return pc - CALL_SIZE if index else pc


@dataclass(frozen=True)
class Prologue:
    """Where a function's ABI prologue (`PUSH R14; MOV R14, R15`) is."""

    start: int                # the instruction holding its PUSH R14
    frame: int                # the one after its MOV: from here on R14 is the frame pointer


@dataclass(frozen=True)
class Function:
    name: str | None          # None when no symbol names it
    start: int
    end: int                  # exclusive
    prologue: Prologue | None  # None: no frame

    @property
    def framed(self) -> bool:
        return self.prologue is not None

    def in_frame(self, pc: int) -> bool:
        """Is R14 this function's frame pointer at `pc` (past the prologue's MOV)?  The
        compiler may put the prologue after a quick path that needs no frame."""
        return self.prologue is not None and pc >= self.prologue.frame


class CodeMap:
    def __init__(self, decoded: Sequence[Instruction | None], code_len: int, entry: int,
                 symbols: SymbolTable | None, handlers: Sequence[int] = ()) -> None:
        """`handlers`: code addresses the executive calls (command handlers)."""
        self.decoded = decoded
        self.code_len = code_len
        starts, addr = [], 0
        while addr < code_len:
            starts.append(addr)
            ins = decoded[addr >> 2]
            addr += ins.size if ins is not None else 4
        self.starts = starts
        self._is_start = frozenset(starts)
        heads = {entry} | {h for h in handlers if h in self._is_start}
        for addr in starts:
            ins = decoded[addr >> 2]
            if type(ins) is Instruction and ins.op.mnemonic in ("CALL", "LCALL"):
                target = ins.branch_target(addr)
                if target is not None and target in self._is_start:
                    heads.add(target)
        names: dict[int, str] = {}
        if symbols is not None:
            for sym in symbols.functions:       # exported ones sort first at an address
                if sym.name.startswith(".") or sym.address not in self._is_start:
                    continue
                if sym.scope == "global" or self._prologue_at(sym.address):
                    heads.add(sym.address)
            for head in heads:
                labels = [n for n in symbols.labels_at(head) if not n.startswith(".")]
                if labels:
                    names[head] = min(labels, key=lambda n: (_scope(symbols, n) != "global", n))
        self._heads = sorted(heads)
        self._names = names
        self._prologues: dict[int, Prologue | None] = {}
        self._functions: dict[int, Function] = {}   # by start: every step asks for one

    # -- instructions ---------------------------------------------------------------------

    def is_instruction(self, addr: int) -> bool:
        return addr in self._is_start

    def instruction(self, addr: int) -> Instruction | Pair | None:
        """The instruction (or compact pair) starting at `addr` (None for a literal word,
        an illegal word or an address outside the code)."""
        return self.decoded[addr >> 2] if addr in self._is_start else None

    def operations(self, start: int, end: int) -> Iterator[tuple[int, Instruction | None]]:
        """(address, operation) of each operation of the instructions from `start` up to
        `end`, in order: a pair's two at its address; None for a word that is none."""
        i = bisect.bisect_left(self.starts, start)
        while i < len(self.starts) and self.starts[i] < end:
            addr = self.starts[i]
            for op in operations(self.decoded[addr >> 2]) or (None,):
                yield addr, op
            i += 1

    def size_at(self, addr: int) -> int:
        ins = self.instruction(addr)
        return ins.size if ins is not None else 4

    def is_call(self, addr: int) -> bool:
        ins = last_operation(self.instruction(addr))
        return ins is not None and ins.op.mnemonic in CALLS

    def returns_at(self, pc: int) -> bool:
        """Whether the next operation to run at `pc` is a RET (never a pair's first)."""
        ins = operations(self.instruction(pc))
        return bool(ins) and ins[0].op.mnemonic == "RET"

    def follows_call(self, ret: int) -> bool:
        """Whether `ret` is where a call returns to."""
        return ret in self._is_start and self.is_call(ret - CALL_SIZE)

    def starts_before(self, addr: int, count: int) -> list[int]:
        """Up to `count` instruction starts below `addr`, lowest first."""
        i = bisect.bisect_left(self.starts, addr)
        return self.starts[max(0, i - count):i]

    # -- functions ------------------------------------------------------------------------

    def function_at(self, pc: int) -> Function | None:
        if not 0 <= pc < self.code_len:
            return None
        i = bisect.bisect_right(self._heads, pc)
        if i == 0:
            return None
        start = self._heads[i - 1]
        function = self._functions.get(start)
        if function is None:
            end = self._heads[i] if i < len(self._heads) else self.code_len
            if start not in self._prologues:
                self._prologues[start] = self._find_prologue(start, end)
            function = self._functions[start] = Function(self._names.get(start), start, end,
                                                         self._prologues[start])
        return function

    def _find_prologue(self, start: int, end: int) -> Prologue | None:
        """The first `PUSH R14; MOV R14, R15` of the function (at its start, or after the
        quick paths of a shrink-wrapped one: hsx.toolchain.cc.shrinkwrap), also when
        one or both are operations of compact pairs."""
        pushed = None
        for addr, op in self.operations(start, end + 4):
            if pushed is not None and sets_frame(op):
                return Prologue(pushed, addr + 4)
            pushed = addr if pushes_frame(op) and addr < end else None
        return None

    def _prologue_at(self, addr: int) -> bool:
        """Whether the instruction at `addr` begins with the prologue."""
        ops = [op for _, op in self.operations(addr, addr + 8)]
        return len(ops) > 1 and pushes_frame(ops[0]) and sets_frame(ops[1])

    def after_prologue(self, function: Function, limit: int) -> Iterator[tuple[int, Instruction]]:
        """(address, operation) of the operations after the prologue's MOV R14, R15, in
        instructions below `limit` (a compact pair may hold that MOV and the next one)."""
        ops = self.operations(function.prologue.start, limit)
        pushed = False
        for _, op in ops:
            if pushed and sets_frame(op):
                break
            pushed = pushes_frame(op)
        for addr, op in ops:
            if op is None:
                return
            yield addr, op


def pushes_frame(op: Instruction | None) -> bool:
    """The prologue's first operation, PUSH R14."""
    return op is not None and op.op.mnemonic == "PUSH" and op.rs1 == FP


def sets_frame(op: Instruction | None) -> bool:
    """The prologue's second operation, MOV R14, R15."""
    return op is not None and op.op.mnemonic == "MOV" and op.rd == FP and op.rs1 == SP


def writes_sp(ins: Instruction) -> bool:
    """Whether `ins` (an operation) sets R15 as its destination register."""
    return "rd" in FORM_FIELDS[ins.op.form] and ins.rd == SP


def sp_move(op: Instruction) -> int | None:
    """How far an operation moves SP: PUSH -4, POP +4, ADDI R15, R15, n by n, 0 when it
    leaves SP alone; None when it sets SP to a value read elsewhere."""
    name = op.op.mnemonic
    if name == "PUSH":
        return -4
    if name == "ADDI" and op.rd == SP and op.rs1 == SP:
        return op.imm
    if writes_sp(op):
        return None
    return 4 if name == "POP" else 0


def _scope(symbols: SymbolTable, name: str) -> str:
    symbol = symbols.symbol(name)
    return symbol.scope if symbol is not None else "local"
