"""Symbolised disassembly of a task's code space.

Instructions come from the machine's pre-decoded code words (the Harvard code space),
never from data memory, which is what the prior debugger read.  Each line carries its
labels, function+offset, source line, branch target with its name, the data symbol an
LDI32 loads, the breakpoints on it, and whether it is the task's current PC (where the
target of an indirect jump or a RET is filled in from the live registers).  A compact
pair is one line: its text is both operations joined by " | ", `mnemonic` its first's,
`pair` the text of each, and what it branches to is its second's.
"""
from __future__ import annotations

import bisect
from typing import Any, Callable

from hsx.image.sym import SymbolTable
from hsx.isa import Form, Instruction, Pair, format_instruction, format_operands, operations

from . import errors as E
from .code import SP, CodeMap, sp_move
from .errors import DebugError
from .view import ContextView

DEFAULT_COUNT = 16
MAX_COUNT = 1024
MODES = ("around", "from")


def disasm_read(symbols, pid: int, where, count: int, mode: str,
                breakpoints: dict[int, list[int]]) -> dict[str, Any]:
    """`disasm.read` of a task of `symbols` (a SymbolService, local or the client
    gateway's): `count` instructions around (or from) `where`, by default the PC."""
    entry = symbols.get(pid)
    task = entry.task
    if where is None:
        addr = task.ctx.pc
    elif isinstance(where, int) and not isinstance(where, bool):
        addr = where
    else:
        addr = symbols.resolve_code(pid, where)
    lines = disassemble(task.ctx, entry.code, entry.table, lambda pc: symbols.describe(pid, pc),
                        addr, count, mode, breakpoints, live=not task.ended)
    return {"pid": pid, "address": addr, "mode": mode, "pc": task.ctx.pc,
            "count": len(lines), "instructions": lines, "warnings": list(entry.warnings)}


def disassemble(ctx: ContextView, code: CodeMap, table: SymbolTable | None,
                describe: Callable[[int], dict[str, Any]], addr: int, count: int, mode: str,
                breakpoints: dict[int, list[int]], live: bool) -> list[dict[str, Any]]:
    """`count` instructions from `addr` ("from") or centred on it ("around").
    `breakpoints` maps addresses to breakpoint ids; `live` says whether the task's
    registers still mean something (dynamic targets at the current PC)."""
    if mode not in MODES:
        raise DebugError(E.BAD_ARGUMENT, f"mode must be one of {', '.join(MODES)}, not {mode!r}")
    if not isinstance(count, int) or isinstance(count, bool) or not 1 <= count <= MAX_COUNT:
        raise DebugError(E.BAD_ARGUMENT, f"count must be 1..{MAX_COUNT}, not {count!r}")
    if not 0 <= addr < code.code_len:
        raise DebugError(E.BAD_ADDRESS, f"0x{addr:X} is outside the code (0x0..0x{code.code_len:X})")
    start = code.starts[bisect.bisect_right(code.starts, addr) - 1]   # the instruction holding addr
    addresses = code.starts_before(start, count // 2) if mode == "around" else []
    pc = start
    while len(addresses) < count and pc < code.code_len:
        addresses.append(pc)
        pc += code.size_at(pc)
    label_for = _labeller(table)
    return [_line(ctx, code, table, describe, label_for, a, breakpoints, live) for a in addresses]


def _labeller(table: SymbolTable | None) -> Callable[[int], str | None]:
    def label_for(target: int) -> str | None:
        if table is None:
            return None
        names = table.labels_at(target)
        return names[0] if names else None
    return label_for


def _line(ctx: ContextView, code: CodeMap, table: SymbolTable | None,
          describe: Callable[[int], dict[str, Any]], label_for: Callable[[int], str | None],
          pc: int, breakpoints: dict[int, list[int]], live: bool) -> dict[str, Any]:
    ins = code.instruction(pc)
    words = [int.from_bytes(ctx.image.code[a:a + 4], "big")
             for a in range(pc, pc + (ins.size if ins is not None else 4), 4)]
    out: dict[str, Any] = {"pc": pc, "size": 4 * len(words), "words": words,
                           "labels": table.labels_at(pc) if table is not None else []}
    out.update(describe(pc))
    if ins is None:
        out.update(mnemonic=None, operands="", text=f".word 0x{words[0]:08X}")
    else:
        out.update(_spelled(ins, pc, label_for))
        target = ins.branch_target(pc)
        current = live and pc == ctx.pc
        if target is None and current:
            target = _dynamic_target(ctx, ins)
        if target is not None:
            out["target"] = target
            name = label_for(target) or _function_offset(describe(target))
            if name is not None:
                out["target_symbol"] = name
        form = ins.op.form if isinstance(ins, Instruction) else None   # (not in pairs)
        if form in (Form.RD_IMM32, Form.RD_IMM20) and table is not None:
            found = table.lookup_address(ins.imm, "data")
            if found is not None:
                out["data_symbol"] = found[0] if not found[1] else f"{found[0]}+{found[1]}"
        if form is Form.BRK:
            out["brk"] = ins.imm
    out["current"] = pc == ctx.pc
    out["breakpoints"] = breakpoints.get(pc, [])
    return out


def _spelled(ins: Instruction | Pair, pc: int,
             label_for: Callable[[int], str | None]) -> dict[str, Any]:
    """mnemonic, operands and text of an instruction; a pair's first mnemonic, the rest
    of its text as operands, and `pair`: each operation's text."""
    if isinstance(ins, Instruction):
        return {"mnemonic": ins.op.mnemonic, "operands": format_operands(ins, pc, label_for),
                "text": format_instruction(ins, pc, label_for)}
    halves = [format_instruction(half, pc, label_for) for half in ins.halves]
    text = format_instruction(ins, pc, label_for)
    mnemonic = ins.first.op.mnemonic
    return {"mnemonic": mnemonic, "operands": text[len(mnemonic):].lstrip(), "text": text,
            "pair": halves}


def _dynamic_target(ctx: ContextView, ins: Instruction | Pair) -> int | None:
    """Where the instruction at the current PC will go, read from the live registers
    (for a pair's RET: at SP as its first operation leaves it)."""
    *before, last = operations(ins)
    name, regs = last.op.mnemonic, ctx.regs
    if name in ("JMPR", "CALLR"):
        return regs[last.rs1]
    if name == "CALL" and last.rs1:
        return (regs[last.rs1] + 4 * last.imm) & 0xFFFFFFFF
    if name == "RET":
        moves = [sp_move(op) for op in before]
        if None in moves:
            return None
        sp = regs[SP] + sum(moves)
        if ctx.layout.stack_base <= sp <= ctx.layout.stack_top - 4:
            return int.from_bytes(ctx.mem[sp:sp + 4], "little")
    return None


def _function_offset(where: dict[str, Any]) -> str | None:
    if "symbol" not in where:
        return None
    return where["symbol"] if not where["offset"] else f"{where['symbol']}+0x{where['offset']:X}"
