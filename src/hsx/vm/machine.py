"""The narrow Machine interface the executive drives (DESIGN.md §1, §3).

A `Machine` holds what all tasks share (the SVC handler, whether to translate); a
`Context` holds one task. `run(ctx, budget)` executes up to `budget` instructions and
returns a `Stop`; guest faults never escape as host exceptions, host misuse raises
`MachineError`.
"""
from __future__ import annotations

import os
from collections import deque
from typing import TYPE_CHECKING

from hsx.image.model import HxeImage

from . import translate
from .context import Context, ContextState, SavedContext
from .errors import MachineError
from .interp import breakpoint_op, build_ops, decode_op
from .layout import DEFAULT_MEM_SIZE, DEFAULT_STACK_SIZE, Layout
from .signals import (BreakpointHit, GuestFault, Halt, SvcTrap, Undecoded, Untranslated,
                      take_back)
from .stop import Stop, StopReason, SvcStop
from .svc import StandaloneSvc, SvcHandler
from .tracescan import MAX_BLOCK
from .translate import HOT_AFTER

if TYPE_CHECKING:
    from .trace import TraceRecord

# Enum members as module constants: attribute lookup on an Enum class costs ~100 ns,
# which matters when run() is called once per instruction (quantum 1).
_READY = ContextState.READY
_BUDGET, _EXITED, _RETURNED, _FAULT, _BRK, _BREAKPOINT, _SVC = (
    StopReason.BUDGET, StopReason.EXITED, StopReason.RETURNED, StopReason.FAULT,
    StopReason.BRK, StopReason.BREAKPOINT, StopReason.SVC)


class Machine:
    """Runs contexts on an engine: `engine="python"` (this class, the reference; with
    `translate=False` it keeps to the exact interpreter), `"native"` (the C core, see
    hsx.vm.native), or None: `$HSX_ENGINE` if set, else native when it is available."""

    engine = "python"

    def __new__(cls, *args, engine: str | None = None, **kwargs):
        if cls is Machine and select_engine(engine) == "native":
            from .native.engine import NativeMachine
            cls = NativeMachine
        return super().__new__(cls)

    def __init__(self, svc: SvcHandler | None = None, *, translate: bool = True,
                 hot_after: int = HOT_AFTER, engine: str | None = None) -> None:
        self.svc: SvcHandler = svc if svc is not None else StandaloneSvc()
        self.translate = translate
        self.hot_after = hot_after      # arrivals before a block is compiled (1: at once)

    # --- contexts ---

    def create_context(self, image: HxeImage, *, mem_size: int = DEFAULT_MEM_SIZE,
                       stack_size: int = DEFAULT_STACK_SIZE, args_size: int = 0) -> Context:
        """A fresh task for `image`: memory laid out, rodata copied, code to be decoded
        as it first runs, PC at the entry, R15 = stack_top, other registers and PSW zero."""
        layout = Layout.compute(mem_size, len(image.rodata), image.bss_size, stack_size,
                                args_size)
        ctx = Context(image, layout)
        self._attach_tables(ctx)
        return ctx

    @staticmethod
    def _attach_tables(ctx: Context) -> None:
        """The interpreter closures and the dispatch tables breakpoints patch."""
        ctx.ops = build_ops(ctx)
        ctx.itab = list(ctx.ops)
        ctx.btab = [translate.untranslated] * len(ctx.ops)

    # --- execution ---

    def run(self, ctx: Context, budget: int) -> Stop:
        """Execute up to `budget` instructions of `ctx`, stopping early at a fault, exit,
        return, BRK, breakpoint or an SVC handler's request.  A context with a `history`
        (a debugger recording it for reverse execution) runs through it."""
        if ctx.history is not None:
            return ctx.history.run(ctx, budget)
        return self.run_plain(ctx, budget)

    def run_plain(self, ctx: Context, budget: int) -> Stop:
        """`run` without the history's interception (what a history itself calls)."""
        if ctx.state is not _READY:
            self._check_ready(ctx)
        if budget <= 0:
            return Stop(_BUDGET, 0, ctx.pc)
        if ctx.trace is not None:
            return self._run_traced(ctx, budget, ctx.itab)
        if self.translate and budget > 1:      # no block fits a budget of one
            return self._run(ctx, budget, ctx.btab, blocks=True)
        return self._run(ctx, budget, ctx.itab, blocks=False)

    def run_interleaved(self, contexts: list[Context], rounds: int) -> tuple[int, int]:
        """Quantum-1 round robin without a `run` call per instruction: one instruction of
        each context in turn, `rounds` times over.

        Stops *before* the first instruction that does anything but retire plainly (SVC,
        fault, BRK, breakpoint, return from the entry frame) — nothing of it has happened —
        and returns (completed rounds, index of that context, or -1 when every round
        completed).  The caller then runs that context with `run(ctx, 1)`, which deals
        with the instruction as usual.  Contexts must be ready, untraced and not resuming
        from a breakpoint; use `run` for anything else.
        """
        tables = [ctx.itab for ctx in contexts]
        pcs = [ctx.pc for ctx in contexts]
        slots = range(len(contexts))
        done, index, resume = 0, -1, 0
        while True:
            try:
                if resume:         # the rest of a round a word's first run interrupted
                    for index in range(resume, len(contexts)):
                        pcs[index] = tables[index][pcs[index] >> 2]()
                    done, resume = done + 1, 0
                while done < rounds:
                    for index in slots:
                        pcs[index] = tables[index][pcs[index] >> 2]()
                    done += 1
                index = -1
            except Undecoded:      # decode it and go on where the round was
                decode_op(contexts[index], pcs[index] >> 2)
                resume = index
                continue
            except (SvcTrap, GuestFault, Halt, BreakpointHit) as stop:
                take_back(stop)    # the interrupted instruction has no effect now
            break
        for i, ctx in enumerate(contexts):
            ctx.pc = pcs[i]
            ctx.steps += done + (i < index)
        return done, index

    def step(self, ctx: Context) -> Stop:
        """Execute exactly the instruction at PC with the exact interpreter (a breakpoint
        at PC does not stop it: a debugger's single step)."""
        if ctx.history is not None:
            return ctx.history.step(ctx)
        return self.step_plain(ctx)

    def step_plain(self, ctx: Context) -> Stop:
        self._check_ready(ctx)
        if ctx.trace is not None:
            return self._run_traced(ctx, 1, ctx.ops)
        return self._run(ctx, 1, ctx.ops, blocks=False)

    def _run(self, ctx: Context, budget: int, table: list, blocks: bool) -> Stop:
        n = budget
        pc = ctx.pc
        base = ctx.steps
        skip = ctx.skip_breakpoint
        if skip is not None:
            ctx.skip_breakpoint = None
        resuming = blocks
        while True:
            try:
                if skip is not None and skip == pc:   # resume from a breakpoint: no re-hit
                    skip = None
                    pc = decode_op(ctx, pc >> 2)()
                    n -= 1
                if blocks:
                    if resuming:
                        # A run starting inside translated code (where the last one ran
                        # out of budget) interprets up to the next block entry: the
                        # resumption point is not an entry worth compiling.
                        resuming = False
                        entries, itab = ctx.blocks, ctx.itab
                        for _ in range(MAX_BLOCK):
                            if not n or pc in entries:
                                break
                            pc = itab[pc >> 2]()
                            n -= 1
                    while n:
                        pc, n = table[pc >> 2](n)
                else:
                    while n:
                        pc = table[pc >> 2]()
                        n -= 1
                ctx.pc, ctx.steps = pc, base + budget
                return Stop(_BUDGET, budget, pc)
            except Untranslated:
                translate.install(ctx, pc, self.hot_after)
            except Undecoded:
                decode_op(ctx, pc >> 2)
            except SvcTrap as trap:
                n -= 1
                ctx.pc, ctx.steps = trap.pc + 4, base + budget - n
                try:
                    request = self.svc(ctx, trap.module, trap.function)
                except GuestFault as fault:
                    return self._fault(ctx, fault, trap.pc, base, budget - n - 1)
                if request is not None:
                    return self._svc_stop(ctx, request, trap.pc, budget - n)
                pc = trap.pc + 4
                resuming = blocks
            except GuestFault as fault:
                if fault.remaining is not None:
                    n = fault.remaining
                return self._fault(ctx, fault, fault.pc, base, budget - n)
            except Halt as halt:
                n = halt.remaining if halt.remaining is not None else n - 1
                ctx.pc, ctx.steps = halt.next_pc, base + budget - n
                if halt.reason == "brk":
                    return Stop(_BRK, budget - n, halt.pc, code=halt.code)
                ctx.state, ctx.exit_status = ContextState.RETURNED, ctx.regs[0]
                return Stop(_RETURNED, budget - n, halt.pc, status=ctx.exit_status)
            except BreakpointHit as hit:
                ctx.pc, ctx.steps = hit.pc, base + budget - n
                ctx.skip_breakpoint = hit.pc
                return Stop(_BREAKPOINT, budget - n, hit.pc)

    @staticmethod
    def _fault(ctx: Context, fault: GuestFault, pc: int, base: int, executed: int) -> Stop:
        ctx.pc, ctx.steps = pc, base + executed
        ctx.state, ctx.fault = ContextState.FAULTED, fault.record(pc)
        return Stop(_FAULT, executed, pc, fault=ctx.fault)

    @staticmethod
    def _svc_stop(ctx: Context, request: SvcStop, pc: int, executed: int) -> Stop:
        if request.reason == SvcStop.EXIT:
            ctx.state, ctx.exit_status = ContextState.EXITED, request.status
            return Stop(_EXITED, executed, pc, status=request.status, svc=request)
        return Stop(_SVC, executed, pc, svc=request)

    def _run_traced(self, ctx: Context, budget: int, table: list) -> Stop:
        """One instruction at a time through the exact interpreter, recording each
        (hsx.vm.trace.run_traced, imported by the first traced run)."""
        from .trace import run_traced
        return run_traced(self, ctx, budget, table)

    @staticmethod
    def _check_ready(ctx: Context) -> None:
        if ctx.state is not _READY:
            raise MachineError(f"context has {ctx.state.value}; it cannot run")

    # --- debugger access: registers, PC, PSW, memory ---

    @staticmethod
    def registers(ctx: Context) -> list[int]:
        return ctx.regs.tolist()

    @staticmethod
    def read_register(ctx: Context, index: int) -> int:
        _check_register(index)
        return ctx.regs[index]

    @staticmethod
    def write_register(ctx: Context, index: int, value: int) -> None:
        _check_register(index)
        _check_u32(value, "register value")
        ctx.regs[index] = value

    @staticmethod
    def get_pc(ctx: Context) -> int:
        return ctx.pc

    @staticmethod
    def set_pc(ctx: Context, pc: int) -> None:
        if not isinstance(pc, int) or pc < 0 or pc & 3 or pc >= ctx.code_len:
            raise MachineError(f"pc {pc!r} is not an instruction address "
                               f"(4-aligned, below 0x{ctx.code_len:X})")
        ctx.pc = pc
        ctx.skip_breakpoint = None

    @staticmethod
    def get_psw(ctx: Context) -> int:
        return ctx.psw

    @staticmethod
    def set_psw(ctx: Context, psw: int) -> None:
        if not isinstance(psw, int) or not 0 <= psw <= 0xF:
            raise MachineError(f"psw {psw!r} must be 0..15 (Z=1 C=2 N=4 V=8)")
        ctx.psw = psw

    @staticmethod
    def save_context(ctx: Context) -> SavedContext:
        """Everything `restore_context` needs to put the task back as it is now:
        registers, PC, PSW, state, exit status, fault and a pending breakpoint resume."""
        return SavedContext(tuple(ctx.regs.tolist()), ctx.pc, ctx.psw, ctx.state,
                            ctx.exit_status, ctx.fault, ctx.skip_breakpoint)

    @staticmethod
    def restore_context(ctx: Context, saved: SavedContext) -> None:
        """Put back what `save_context` took (memory is the caller's business)."""
        regs = ctx.regs
        for index, value in enumerate(saved.registers):
            regs[index] = value
        ctx.pc, ctx.psw, ctx.state = saved.pc, saved.psw, saved.state
        ctx.exit_status, ctx.fault = saved.exit_status, saved.fault
        ctx.skip_breakpoint = saved.skip_breakpoint

    @staticmethod
    def enter_function(ctx: Context, addr: int, return_address: int) -> None:
        """Set the task up as a CALL of `addr` would: `return_address` pushed on its
        stack, SP below it, PC at `addr`, ready to run (the executive calls a command's
        handler this way; a return address outside the code stops the machine with a
        PC fault when the function returns to it).  MachineError when `addr` is not an
        instruction or the stack has no room."""
        if not isinstance(addr, int) or addr < 0 or addr & 3 or addr >= ctx.code_len:
            raise MachineError(f"function address {addr!r} is not an instruction address "
                               f"(4-aligned, below 0x{ctx.code_len:X})")
        _check_u32(return_address, "return address")
        sp = ctx.regs[15] - 4
        if sp < ctx.layout.stack_base:
            raise MachineError(f"the stack has no room for a return address "
                               f"(SP 0x{ctx.regs[15]:X}, stack base 0x{ctx.layout.stack_base:X})")
        ctx.mem[sp:sp + 4] = return_address.to_bytes(4, "little")
        ctx.regs[15] = sp
        ctx.pc, ctx.state, ctx.skip_breakpoint = addr, ContextState.READY, None

    @staticmethod
    def read_memory(ctx: Context, addr: int, length: int) -> bytes:
        _check_range(ctx, addr, length)
        return bytes(ctx.mem[addr:addr + length])

    @staticmethod
    def write_memory(ctx: Context, addr: int, data: bytes) -> None:
        _check_range(ctx, addr, len(data))
        ctx.mem[addr:addr + len(data)] = data

    @staticmethod
    def memory_regions(ctx: Context) -> dict:
        """The task's address-space map and current SP as plain data (`memory.regions`)."""
        return {"regions": [{"name": r.name, "start": r.start, "end": r.end}
                            for r in ctx.layout.regions()],
                "sp": ctx.regs[15], "stack_base": ctx.layout.stack_base,
                "stack_top": ctx.layout.stack_top, "reg_base": ctx.layout.reg_base}

    # --- breakpoints and trace ---

    @staticmethod
    def add_breakpoint(ctx: Context, addr: int) -> None:
        """Stop before the instruction at `addr` executes. Costs nothing until reached:
        the dispatch entries are swapped for a trampoline, blocks covering it dropped.
        (The instruction is decoded when a run resumes through it: the native engine,
        which shares this bookkeeping, decodes it itself.)"""
        if not isinstance(addr, int) or addr < 0 or addr & 3 or addr >= ctx.code_len:
            raise MachineError(f"breakpoint address {addr!r} is not an instruction address")
        ctx.breakpoints.add(addr)
        translate.invalidate(ctx, addr)
        ctx.itab[addr >> 2] = breakpoint_op(addr)
        ctx.btab[addr >> 2] = translate.breakpoint_entry(addr)

    @staticmethod
    def remove_breakpoint(ctx: Context, addr: int) -> None:
        if addr not in ctx.breakpoints:
            raise MachineError(f"no breakpoint at {addr!r}")
        ctx.breakpoints.discard(addr)
        ctx.itab[addr >> 2] = ctx.ops[addr >> 2]
        ctx.btab[addr >> 2] = translate.untranslated

    @staticmethod
    def set_trace(ctx: Context, enabled: bool, depth: int = 1) -> None:
        """Record the last `depth` retired instructions (runs use the exact interpreter
        while on)."""
        if enabled and depth < 1:
            raise MachineError("trace depth must be at least 1")
        ctx.trace = deque(maxlen=depth) if enabled else None

    @staticmethod
    def last_trace(ctx: Context) -> TraceRecord | None:
        return ctx.trace[-1] if ctx.trace else None


ENGINES = ("native", "python")


def select_engine(requested: str | None = None) -> str:
    """The engine a Machine(engine=requested) runs on. "native" when the C core cannot
    be had here raises MachineError saying why; None falls back to "python"."""
    choice = requested or os.environ.get("HSX_ENGINE") or None
    if choice is not None and choice not in ENGINES:
        raise MachineError(f"unknown engine {choice!r} (choose {' or '.join(ENGINES)})")
    if choice == "python":
        return "python"
    from .native.engine import unavailable_reason
    problem = unavailable_reason()
    if problem is None:
        return "native"
    if choice == "native":
        raise MachineError(f"the native engine is not available: {problem}")
    return "python"


def _check_register(index: int) -> None:
    if not isinstance(index, int) or not 0 <= index <= 15:
        raise MachineError(f"register {index!r} does not exist (R0..R15)")


def _check_u32(value: int, what: str) -> None:
    if not isinstance(value, int) or not 0 <= value <= 0xFFFFFFFF:
        raise MachineError(f"{what} {value!r} is not a 32-bit unsigned integer")


def _check_range(ctx: Context, addr: int, length: int) -> None:
    size = ctx.layout.mem_size
    if (not isinstance(addr, int) or not isinstance(length, int) or addr < 0 or length < 0
            or addr + length > size):
        raise MachineError(f"memory range 0x{addr:X}+{length} is outside 0..0x{size:X}"
                           if isinstance(addr, int) and isinstance(length, int)
                           else f"bad memory range {addr!r}+{length!r}")
