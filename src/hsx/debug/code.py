"""What a task's code space holds: instruction boundaries, calls and functions.

Built once per task from the machine's pre-decoded words (never from data memory), so
the stack walker, the stepper, the breakpoints and the disassembler agree on where
instructions and functions start — also for an image without a symbol file.

A *function* is not every label: MVASM and the C compiler put labels on loop heads and
branch targets too.  Function starts are the entry point, the targets of direct calls, command
handlers, exported code labels and labels that begin with the ABI prologue (`PUSH R14; MOV R14,
R15`).  Labels starting with "." (the C compiler's block labels) never start a function.
"""
from __future__ import annotations

import bisect
from dataclasses import dataclass
from typing import Sequence

from hsx.image.sym import SymbolTable
from hsx.isa import Instruction
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
class Function:
    name: str | None          # None when no symbol names it
    start: int
    end: int                  # exclusive
    prologue: int | None      # where its ABI prologue (`PUSH R14; MOV R14, R15`) starts:
                              # from 8 bytes on, R14 is its frame pointer; None: no frame

    @property
    def framed(self) -> bool:
        return self.prologue is not None

    def in_frame(self, pc: int) -> bool:
        """Is R14 this function's frame pointer at `pc` (past the prologue's MOV)?  The
        compiler may put the prologue after a quick path that needs no frame."""
        return self.prologue is not None and pc >= self.prologue + 8


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
            if ins is not None and ins.op.mnemonic in ("CALL", "LCALL"):
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
        self._prologues: dict[int, int | None] = {}
        self._functions: dict[int, Function] = {}   # by start: every step asks for one

    # -- instructions ---------------------------------------------------------------------

    def is_instruction(self, addr: int) -> bool:
        return addr in self._is_start

    def instruction(self, addr: int) -> Instruction | None:
        """The instruction starting at `addr` (None for a literal word, an illegal word or
        an address outside the code)."""
        return self.decoded[addr >> 2] if addr in self._is_start else None

    def size_at(self, addr: int) -> int:
        ins = self.instruction(addr)
        return ins.size if ins is not None else 4

    def is_call(self, addr: int) -> bool:
        ins = self.instruction(addr)
        return ins is not None and ins.op.mnemonic in CALLS

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

    def _find_prologue(self, start: int, end: int) -> int | None:
        """The first `PUSH R14; MOV R14, R15` of the function (at its start, or after the
        quick paths of a shrink-wrapped one: hsx.toolchain.cc.shrinkwrap)."""
        i = bisect.bisect_left(self.starts, start)
        while i < len(self.starts) and self.starts[i] < end:
            if self._prologue_at(self.starts[i]):
                return self.starts[i]
            i += 1
        return None

    def _prologue_at(self, addr: int) -> bool:
        first, second = self.instruction(addr), self.instruction(addr + 4)
        return (first is not None and second is not None
                and first.op.mnemonic == "PUSH" and first.rs1 == FP
                and second.op.mnemonic == "MOV" and second.rd == FP and second.rs1 == SP)


def writes_sp(ins: Instruction) -> bool:
    """Whether `ins` sets R15 as its destination register."""
    return "rd" in FORM_FIELDS[ins.op.form] and ins.rd == SP


def _scope(symbols: SymbolTable, name: str) -> str:
    symbol = symbols.symbol(name)
    return symbol.scope if symbol is not None else "local"
