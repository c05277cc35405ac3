"""Per-instruction trace records, built only on the traced (slow) path.

The memory access of an instruction is predicted from the registers before it runs
(address and width) and its value read back afterwards: what a load read or a store
wrote is then in memory at that address.  A compact pair is one step and one record
with up to two accesses; its operations run one at a time here, each one's access found
from the registers just before it (the second's can depend on the first: PUSH R1 |
PUSH R2).

`run_traced` is how a machine runs a context that has a trace ring (`ctx.trace`).
"""
from __future__ import annotations

import ctypes
from dataclasses import dataclass, replace
from itertools import compress
from operator import ne
from typing import TYPE_CHECKING

from hsx.isa import BY_MNEMONIC, Form, Group, Instruction, Pair

from .interp import MEMORY_WIDTH, decode_op, register_window, restore_before_pair
from .signals import BreakpointHit, GuestFault, Halt, SvcTrap
from .stop import Stop, StopReason

if TYPE_CHECKING:
    from .machine import Machine

_REGISTERS = range(16)

# Stack traffic of instructions outside the MEMORY group: "write" pushes at SP - 4,
# "read" pops at SP.
_STACK_ACCESS = {"PUSH": "write", "CALL": "write", "LCALL": "write", "CALLR": "write",
                 "POP": "read", "RET": "read"}
assert set(_STACK_ACCESS) <= set(BY_MNEMONIC)


@dataclass(slots=True)
class MemoryAccess:
    op: str                   # "read" | "write"
    addr: int
    width: int
    value: int
    old: int | None = None    # a write: what was there before


@dataclass(slots=True)
class TraceRecord:
    """One retired instruction: registers it changed {n: (old, new)}, PSW around it.

    A compact pair's record is that of its whole step: `changed` holds each register's
    value before the pair and after it, `memory` its first access (in the order they
    ran) and `memory2` the second, when both of its operations made one."""

    pc: int
    word: int
    changed: dict[int, tuple[int, int]]
    psw_before: int
    psw_after: int
    memory: MemoryAccess | None
    steps: int                # the context's retired-instruction count after it
    memory2: MemoryAccess | None = None


def predict_access(ins: Instruction | None, regs: list[int],
                   stack_top: int) -> tuple[str, int, int] | None:
    """(op, addr, width) of the data access `ins` will make, from the pre-state (of an
    instruction: a pair's second access depends on its first operation)."""
    return _where(_access_plan(ins), regs, stack_top)


def old_value(ctx, access: tuple[str, int, int] | None) -> int | None:
    """What a predicted write will overwrite (read before the instruction runs)."""
    if access is None or access[0] != "write":
        return None
    _, addr, width = access
    if addr < 0 or addr + width > len(ctx.mem):
        return None
    return int.from_bytes(ctx.mem[addr:addr + width], "little")


def make_record(ctx, pc: int, before: list[int], psw_before: int,
                access: tuple[str, int, int] | None, old: int | None = None) -> TraceRecord:
    """The record of the instruction at `pc` that just retired, from the registers and
    PSW before it and its predicted access (`old`: what a write overwrote)."""
    return _record(ctx, pc, before, psw_before, _observed(ctx.mem, access, old))


def _record(ctx, pc: int, before: list[int], psw_before: int,
            memory: MemoryAccess | None = None,
            memory2: MemoryAccess | None = None) -> TraceRecord:
    after = ctx.regs.tolist()
    changed = {i: (before[i], after[i]) for i in compress(_REGISTERS, map(ne, before, after))}
    word = int.from_bytes(ctx.image.code[pc:pc + 4], "big")
    return TraceRecord(pc, word, changed, psw_before, ctx.psw, memory, ctx.steps, memory2)


def _observed(mem, access: tuple[str, int, int] | None, old: int | None) -> MemoryAccess | None:
    """A predicted access with the value now at its address (what was read or written)."""
    if access is None:
        return None
    op, addr, width = access
    return MemoryAccess(op, addr, width, int.from_bytes(mem[addr:addr + width], "little"), old)


_TRAPS = (SvcTrap, GuestFault, Halt, BreakpointHit)     # raised before any effect
_BUDGET = StopReason.BUDGET
# How an instruction's data access is found from the registers before it (`_plan`);
# _PAIR: a compact pair's, one for each operation.
_NONE, _LOAD, _STORE, _PUSH, _POP, _RET, _PAIR = range(7)
AccessPlan = tuple[int, int, int, int]           # (access kind, base register, offset, width)


def _plan(ctx, pc: int) -> tuple:
    """(word, access kind, base register, offset, width) of the instruction at `pc`;
    for a pair (word, _PAIR, first operation's AccessPlan, second's, 0)."""
    word = int.from_bytes(ctx.image.code[pc:pc + 4], "big")
    decode_op(ctx, pc >> 2)                      # the table runs it next
    ins = ctx.decoded[pc >> 2]
    if type(ins) is Pair:
        return word, _PAIR, _access_plan(ins.first), _access_plan(ins.second), 0
    return (word, *_access_plan(ins))


def _access_plan(ins: Instruction | None) -> AccessPlan:
    if ins is None:
        return _NONE, 0, 0, 0
    name = ins.op.mnemonic
    if ins.op.group is Group.MEMORY:
        kind = _STORE if ins.op.form is Form.MEM_RS else _LOAD
        return kind, ins.rs1, ins.imm, MEMORY_WIDTH[name]
    kind = _STACK_ACCESS.get(name)
    if kind is None:
        return _NONE, 0, 0, 0
    if kind == "write":
        return _PUSH, 15, -4, 4
    return _RET if name == "RET" else _POP, 15, 0, 4


def _where(plan: AccessPlan, regs, stack_top: int) -> tuple[str, int, int] | None:
    """(op, addr, width) of an access planned by `_access_plan`, given the registers."""
    kind, base, offset, width = plan
    if kind == _LOAD or kind == _STORE:
        addr = (regs[base] + offset) & 0xFFFFFFFF
    elif kind == _PUSH or kind == _POP or (kind == _RET and regs[15] != stack_top):
        addr = regs[15] + offset
    else:
        return None
    return "write" if kind == _STORE or kind == _PUSH else "read", addr, width


def _run_pair(ctx, pc: int, plans: tuple[AccessPlan, AccessPlan], psw: int, resuming: bool,
              table: list) -> tuple[int | None, list[MemoryAccess]]:
    """Run the pair at `pc` one operation at a time, each one's access located just
    before it and its value read just after it (the second may overwrite what the first
    read): (next PC, the accesses).  The next PC is None when the pair did not retire
    that way (a breakpoint on it, unless `resuming` from it; a fault; a return stop):
    then nothing of it has happened, and `machine._run` runs it again to deal with the
    stop (the accesses then are the first operation's, which it will make again)."""
    index = pc >> 2
    whole = ctx.ops[index]
    if not resuming and table[index] is not whole:
        return None, []                              # a breakpoint trampoline
    regs, mem, top = ctx.regs, ctx.mem, ctx.layout.stack_top
    first, second = whole.halves
    window = register_window(ctx)
    registers = mem[window]
    access = _where(plans[0], regs, top)
    old = old_value(ctx, access)
    try:
        first()
    except GuestFault:
        return None, []
    memories = [] if access is None else [_observed(mem, access, old)]
    access2 = _where(plans[1], regs, top)
    old2 = old_value(ctx, access2)
    try:
        next_pc = second()
    except _TRAPS:
        if old is None:                              # the first operation stored nothing
            restore_before_pair(ctx, window, registers, psw)
        else:
            _, addr, width = access
            restore_before_pair(ctx, window, registers, psw, slice(addr, addr + width),
                                old.to_bytes(width, "little"))
        return None, memories
    if access2 is not None:
        memories.append(_observed(mem, access2, old2))
    return next_pc, memories


def run_traced(machine: Machine, ctx, budget: int, table: list) -> Stop:
    """One instruction at a time through the exact interpreter (`table`), each one's
    `TraceRecord` appended to `ctx.trace` as it retires.

    A plain instruction runs straight from the table; one that traps (an SVC, a fault,
    BRK, a breakpoint: each raised before the instruction has any effect) runs again
    through `machine._run`, which deals with it, as does a resumption from a breakpoint.
    A compact pair runs one operation at a time (`_run_pair`); when it traps, what its
    first did is undone and `machine._run` deals with it the same way.  PC, PSW and the step count are kept in locals (on the native engine each is a field
    of the C task record) and stored before each record goes out: an observer (a watch)
    may look at the task and ask it to stop.  A ring with a `run_ended` method is told
    when the run returns; one with a `plans` dict keeps there what runs found out about
    each instruction (its word and data access: code does not change), which matters
    when runs are one instruction long (a traced task among others at quantum 1)."""
    executed = 0
    regs, mem, code_len = ctx.regs, ctx.mem, ctx.code_len
    tolist, mem_len = regs.tolist, len(mem)
    stack_top = ctx.layout.stack_top
    trace = ctx.trace
    plans: dict[int, tuple[int, int, int, int, int]] | None = getattr(trace, "plans", None)
    if plans is None:           # a ring that keeps `plans` shares them between runs
        plans = {}
    append = trace.append
    pc, steps, psw, skip = ctx.pc, ctx.steps, ctx.psw, ctx.skip_breakpoint
    # Where PC, PSW and the step count live: the native engine keeps them as fields of
    # its C task record (`NativeContext.task`, whose properties ctx.pc etc. forward to),
    # written there directly for a third of the cost; the Python engine in the context.
    state = getattr(ctx, "task", None)
    if not isinstance(state, ctypes.Structure):
        state = ctx
    while executed < budget:
        before = tolist()
        pair_memories = None
        if pc < code_len:
            plan = plans.get(pc)
            if plan is None:
                plan = plans[pc] = _plan(ctx, pc)
            word, kind, base, offset, width = plan
            addr = old = None
            if kind == _PAIR:
                if skip is not None and skip != pc:
                    ctx.skip_breakpoint = skip = None     # as _run: it resumes elsewhere
                next_pc, pair_memories = _run_pair(ctx, pc, (base, offset), psw, skip == pc,
                                                   table)
                if next_pc is not None:
                    ctx.skip_breakpoint = skip = None
                    steps += 1
                    executed += 1
                    state.pc, state.steps = next_pc, steps
                    append(_record(ctx, pc, before, psw, *pair_memories))
                    pc, psw = next_pc, state.psw
                    continue
            elif kind:
                if kind == _LOAD:
                    addr = (before[base] + offset) & 0xFFFFFFFF
                elif kind == _STORE:
                    addr = (before[base] + offset) & 0xFFFFFFFF
                    if addr + width <= mem_len:
                        old = int.from_bytes(mem[addr:addr + width], "little")
                elif kind == _PUSH:
                    addr = before[15] - 4
                    if 0 <= addr and addr + width <= mem_len:
                        old = int.from_bytes(mem[addr:addr + width], "little")
                elif kind == _POP or before[15] != stack_top:
                    addr = before[15]
            if skip is None and pair_memories is None:      # (a pair that trapped: below)
                try:
                    next_pc = table[pc >> 2]()
                except _TRAPS:
                    pass
                else:
                    steps += 1
                    executed += 1
                    state.pc, state.steps = next_pc, steps
                    psw_after = state.psw
                    after = tolist()
                    memory = None if addr is None else MemoryAccess(
                        "write" if kind == _STORE or kind == _PUSH else "read",
                        addr, width, int.from_bytes(mem[addr:addr + width], "little"), old)
                    append(TraceRecord(
                        pc, word, {} if before == after else
                        {i: (before[i], after[i]) for i in
                         compress(_REGISTERS, map(ne, before, after))},
                        psw, psw_after, memory, steps))
                    pc, psw = next_pc, psw_after
                    continue
        if pair_memories is None:
            access = predict_access(ctx.decoded[pc >> 2] if pc < code_len else None,
                                    before, stack_top)
            old = old_value(ctx, access) if access is not None else None
        stop = machine._run(ctx, 1, table, blocks=False)
        executed += stop.executed
        if stop.executed:
            ctx.trace.append(make_record(ctx, pc, before, psw, access, old)
                             if pair_memories is None
                             else _record(ctx, pc, before, psw, *pair_memories))
        if stop.reason is not _BUDGET:
            _run_ended(ctx.trace)
            return replace(stop, executed=executed)
        append = ctx.trace.append
        pc, steps, psw, skip = ctx.pc, ctx.steps, ctx.psw, ctx.skip_breakpoint
    _run_ended(ctx.trace)
    return Stop(_BUDGET, executed, pc)


def _run_ended(trace) -> None:
    """Tell a ring that wants to know (hsx.debug's taps) that the run returns."""
    end = getattr(trace, "run_ended", None)
    if end is not None:
        end()
