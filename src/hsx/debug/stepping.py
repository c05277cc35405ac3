"""Run control: pause, resume, instruction steps, and the steps that run at full speed.

`step` executes up to `HOST_STEPS` instructions one at a time on the host (that is
what it is for) and replies with what it did; a longer `step N` is a counted run: the
kernel runs the task with everything else and pauses it after exactly N instructions
(`Task.step_limit`), so it is interrupted by `pause` like `resume` is.
`step_over`, `step_out`, `step_line` and `run_to` never single-step on the host: they
plant machine breakpoints where the step should end, each with a guard that decides
whether the task has *really* arrived (the same return address is also reached by
deeper recursive calls, which have a lower SP), resume the task, and let the kernel run
it at full speed with everything else.  A pending step ends when one of its stops is
reached, or is abandoned when the task stops for any other reason (a breakpoint, a
BRK, a fault, a pause, its end).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from hsx.kernel.executive import Kernel
from hsx.kernel.states import TaskState
from hsx.image.sym import SymbolTable
from hsx.kernel.task import Task

from . import errors as E
from . import stack
from .breakpoints import BreakpointTable, MachineBreakpoints
from .code import SP, CodeMap
from .errors import DebugError
from .symbols import SymbolService, Where
from .watches import WatchTable

Guard = Callable[[], bool]
Announce = Callable[..., None]
HOST_STEPS = 10_000              # `step` counts up to this run on the host, synchronously
LINE_MODES = ("over", "into", "out")
_PAUSED = TaskState.PAUSED       # read once: a class attribute read is slow on Python 3.11


@dataclass
class PendingStep:
    kind: str                        # "step", "step_over", "step_out" or "step_line"
    task: Task
    stops: dict[int, Guard]          # address -> is the task really done when it gets here?
    start: int = 0                   # ctx.steps when a counted step began
    leaving: str | None = None       # step_out: the function it runs out of


class RunControl:
    def __init__(self, kernel: Kernel, symbols: SymbolService, machine: MachineBreakpoints,
                 breakpoints: BreakpointTable, watches: WatchTable, announce: Announce) -> None:
        self.kernel = kernel
        self.symbols = symbols
        self.machine = machine
        self.breakpoints = breakpoints
        self.watches = watches
        self.announce = announce
        self.breaks = 0                  # debug_break events so far (bumped by `stopped`)
        self._pending: dict[int, PendingStep] = {}

    # -- pause and resume -----------------------------------------------------------------

    def pause(self, pid: int | None = None) -> list[int]:
        """Pause one task, or every live task."""
        if pid is not None:
            self.symbols.live(pid)
        return [task.pid for task in self.kernel.pause(pid)]

    def resume(self, pid: int | None = None) -> list[int]:
        """Resume one paused task, or all; the instruction at each PC runs first, even
        with a breakpoint on it."""
        targets = [self.symbols.live(pid)] if pid is not None else self.kernel.live_tasks()
        resumed = []
        for task in targets:
            if task.state is TaskState.PAUSED:
                self._go(task)
                resumed.append(task.pid)
        return resumed

    # -- steps ----------------------------------------------------------------------------

    def step(self, pid: int, count: int = 1) -> dict[str, Any]:
        """Execute `count` instructions of one task (pausing it first).  Ends early on a
        BRK, a fault, the task's end, a stopping watch, or — after the first instruction —
        on reaching an enabled breakpoint.  Up to HOST_STEPS run here and now; more run
        in the kernel at full speed (the reply has `pending: "step"`, the `debug_break`
        comes at the end, `pause` abandons it)."""
        if not isinstance(count, int) or isinstance(count, bool) or count < 1:
            raise DebugError(E.BAD_ARGUMENT, f"count must be a positive integer, not {count!r}")
        task = self._park(pid)
        if count > HOST_STEPS:
            task.step_limit = task.ctx.steps + count
            self._pending[pid] = PendingStep("step", task, {}, start=task.ctx.steps)
            self._go(task)
            return self._result(task, pending="step", requested=count)
        ctx = task.ctx
        breaks = self.breaks
        executed, reason, extra = 0, "step", {}
        while executed < count:
            done = self.kernel.step(pid, 1)
            executed += done
            if not done or task.state is not _PAUSED or self.breaks != breaks:
                break
            watch = self.watches.take_stop(pid)
            if watch is not None:
                reason, extra = "watch", watch
                break
            if executed < count:
                hit = self.breakpoints.hit(task, ctx.pc)
                if hit is not None:
                    reason, extra = "breakpoint", {"breakpoint_id": hit[0].id}
                    break
        if task.state is _PAUSED and self.breaks == breaks:
            ctx.skip_breakpoint = ctx.pc     # a later resume runs it, whoever resumes
            self.announce(task, reason, executed=executed, **extra)
        return self._result(task, executed=executed)

    def step_over(self, pid: int) -> dict[str, Any]:
        """Step one instruction, but run a call (CALL, LCALL, CALLR) to its return."""
        task = self._park(pid)
        ctx = task.ctx
        if not self.symbols.get(pid).code.is_call(ctx.pc):
            return self.step(pid, 1)
        sp = ctx.regs[SP]
        return self._start(task, "step_over", {ctx.pc + 4: lambda: ctx.regs[SP] >= sp})

    def step_out(self, pid: int) -> dict[str, Any]:
        """Run until the current function returns to its caller."""
        task = self._park(pid)
        ctx = task.ctx
        found = stack.return_address(ctx, self.symbols.get(pid).code)
        if found is None:
            raise DebugError(E.OUTERMOST_FRAME, f"task {pid} is in its outermost frame (or its "
                             "frame cannot be located): there is no caller to return to")
        ret, entry = found
        function = self.symbols.get(pid).code.function_at(ctx.pc)
        return self._start(task, "step_out", {ret: lambda: ctx.regs[SP] > entry},
                           leaving=function.name if function is not None else None)

    def step_line(self, pid: int, mode: str = "over") -> dict[str, Any]:
        """Run to another source line.  `over`: until the line changes in this frame,
        running calls (recursive ones too) to their return; `into`: the same, but also
        stop at the first line of any function with line information that gets called;
        `out`: until the function returns to its caller.  Leaving the function stops at
        the return address (the caller's line of the call)."""
        if mode not in LINE_MODES:
            raise DebugError(E.BAD_ARGUMENT, f"mode must be one of {', '.join(LINE_MODES)}, "
                             f"not {mode!r}")
        entry = self.symbols.get(pid)
        if entry.table is None:
            raise DebugError(E.NO_SYMBOLS, f"no symbols for task {pid}: source lines unknown")
        task = self._park(pid)
        ctx, code, table = task.ctx, entry.code, entry.table
        here = table.line_for(ctx.pc)
        if here is None:
            raise DebugError(E.NO_LINE_INFO, f"no source line for pc 0x{ctx.pc:04X}")
        if mode == "out":
            return self.step_out(pid)
        function = code.function_at(ctx.pc)
        lo, hi = (function.start, function.end) if function else (0, code.code_len)
        frame = stack.frame0(ctx, code).entry_sp
        same_frame: Guard = ((lambda: stack.frame0(ctx, code).entry_sp == frame)
                             if frame is not None else (lambda: True))
        stops: dict[int, Guard] = {
            e.pc: same_frame for e in table.lines
            if lo <= e.pc < hi and (e.file, e.line) != (here.file, here.line)}
        if mode == "into":
            for start in _bodies(code, table):
                if start in stops:
                    stops[start] = _always         # another line here, or a new call
                elif lo <= start < hi:
                    stops[start] = lambda: not same_frame()    # a recursive call
                else:
                    stops[start] = _always
        found = stack.return_address(ctx, code)
        if found is not None:
            ret, sp = found
            returned: Guard = lambda: ctx.regs[SP] > sp
            inner = stops.get(ret)
            stops[ret] = returned if inner is None else (lambda: returned() or inner())
        return self._start(task, "step_line", stops)

    def run_to(self, pid: int, where: Where, owner: str | None = None) -> dict[str, Any]:
        """A temporary breakpoint at `where`, then resume: the task runs at full speed."""
        task = self.symbols.live(pid)
        self.cancel(pid)
        bp_id = self.breakpoints.set(pid, where, temporary=True, owner=owner)
        if task.state is TaskState.PAUSED:
            self._go(task)
        return self._result(task, breakpoint_id=bp_id)

    def jump(self, pid: int, where: Where) -> dict[str, Any]:
        """gdb's `jump`: the paused task's PC moves to `where` and nothing runs.  Only
        within the function it is stopped in: the frame (saved registers, return
        address, the locals' slots) is that function's and would be wrong elsewhere.
        Its name or opening line means its body, as for a breakpoint: running the
        prologue again in the frame it made would break the frame."""
        task = self.symbols.live(pid)
        require_stopped(task, "jump")
        addr, there = jump_target(self.symbols, pid, task.ctx, where)
        self.cancel(pid)
        task.ctx.pc = addr
        task.ctx.skip_breakpoint = None
        return self._result(task, **there)

    # -- what the debugger calls at stops -------------------------------------------------

    def reached(self, task: Task, addr: int) -> PendingStep | None:
        """At a machine breakpoint: the task's pending step if it ends here (it is then
        finished); None lets the step go on."""
        pending = self._pending.get(task.pid)
        guard = pending.stops.get(addr) if pending is not None else None
        if guard is None or not guard():
            return None
        self.cancel(task.pid)
        return pending

    def counted(self, task: Task) -> int:
        """A counted step reached its count (the kernel's budget stop): how many
        instructions it executed."""
        pending = self._pending.get(task.pid)
        return task.ctx.steps - pending.start if pending is not None else 0

    def stopped(self, task: Task) -> None:
        """The task stopped and a debug_break is being reported: any pending step is over."""
        self.breaks += 1
        self.cancel(task.pid)

    def cancel(self, pid: int) -> None:
        pending = self._pending.pop(pid, None)
        if pending is not None:
            pending.task.step_limit = None
        if pending is not None and not pending.task.ended:
            for addr in pending.stops:
                self.machine.release(pending.task, addr)

    def pending(self, pid: int) -> str | None:
        step = self._pending.get(pid)
        return step.kind if step is not None else None

    # -- internals ------------------------------------------------------------------------

    def _start(self, task: Task, kind: str, stops: dict[int, Guard],
               leaving: str | None = None) -> dict[str, Any]:
        for addr in stops:
            self.machine.acquire(task, addr)
        self._pending[task.pid] = PendingStep(kind, task, stops, leaving=leaving)
        self._go(task)
        return self._result(task, pending=kind, **({"function": leaving} if leaving else {}))

    def _go(self, task: Task) -> None:
        task.ctx.skip_breakpoint = task.ctx.pc
        self.kernel.resume(task.pid)

    def _park(self, pid: int) -> Task:
        """The task, paused (a new step replaces a pending one)."""
        task = self.symbols.live(pid)
        self.cancel(pid)
        if task.state is not _PAUSED:
            self.kernel.pause(pid)
        return task

    @staticmethod
    def _result(task: Task, **extra: Any) -> dict[str, Any]:
        state = task.state
        return {"pid": task.pid, "pc": task.ctx.pc,          # _value_: .value is a descriptor
                "state": state._value_ if state else None, **extra}


def jump_target(symbols: SymbolService, pid: int, ctx: Any, where: Where) -> tuple[int, dict]:
    """Where `jump` moves the task whose context is `ctx`: the address and its place
    (symbol, offset, file, line).  Only within the function it is stopped in; a
    function's name or opening line means its body, as for a breakpoint.  Shared by the
    executive and hsx.client's gateway (which jumps a task on a board)."""
    addr = where if isinstance(where, int) else \
        symbols.resolve_code(pid, where, past_prologue=True)
    if addr & 3 or not 0 <= addr < ctx.code_len:
        raise DebugError(E.BAD_ADDRESS, f"0x{addr:X} is not an instruction address")
    here = symbols.describe(pid, ctx.pc).get("symbol")
    there = symbols.describe(pid, addr)
    if there.get("symbol") != here:
        raise DebugError(E.OUTSIDE_FUNCTION, f"can only jump within {here or 'this code'}: "
                         f"its frame would be wrong in {there.get('symbol') or 'other code'}")
    return addr, there


def require_stopped(task: Task, doing: str) -> None:
    """The task must be paused where it runs (not in a sleep or a mailbox wait): what
    going back and jumping need (`doing` says which, for the message)."""
    if task.state is not TaskState.PAUSED:
        raise DebugError(E.NOT_STOPPED, f"task {task.pid} is {task.state.value}: pause it "
                         f"to {doing}")
    if task.resume_state not in (None, TaskState.READY):
        raise DebugError(E.NOT_STOPPED, f"task {task.pid} is blocked "
                         f"({task.resume_state.value}): {doing} from a stop where it runs")


def _always() -> bool:
    return True


def _bodies(code: CodeMap, table: SymbolTable) -> set[int]:
    """Where `step_line(mode="into")` stops in a called function: where its body begins,
    past the prologue, as the compiler recorded it (C built with -g); else its first
    instruction with a line (MVASM, where every instruction is a line of its own)."""
    firsts: dict[int, int] = {}
    for line in table.lines:
        function = code.function_at(line.pc)
        if function is not None:
            firsts.setdefault(function.start, line.pc)
    bodies = set()
    for start, first in firsts.items():
        body = table.body_of(start)
        bodies.add(first if body is None else body)
    return bodies
