"""Reverse execution for the debugger: recording on and off, `step.back` and
`continue.back` (docs/debugger.md, "Reverse execution"). The recording and the rewinding
themselves are hsx.debug.history's."""
from __future__ import annotations

from typing import Any, Callable

from hsx.kernel.executive import Kernel
from hsx.kernel.task import Task

from . import errors as E
from .breakpoints import BreakpointTable
from .conditions import ConditionError
from .errors import DebugError
from .history import DEFAULT_BUDGET, History
from .stepping import require_stopped
from .symbols import SymbolService

MIN_BUDGET = 1 << 20
MAX_BUDGET = 1 << 30
TOTAL_BUDGET = 1 << 30       # history of all recorded tasks together
LINE_WINDOW = 2_000          # instructions replayed one by one to find a line start


class ReverseControl:
    def __init__(self, kernel: Kernel, symbols: SymbolService, breakpoints: BreakpointTable,
                 scope_of: Callable[[Task], Any],
                 announce: Callable[..., None]) -> None:
        self.kernel, self.symbols, self.breakpoints = kernel, symbols, breakpoints
        self.scope_of, self.announce = scope_of, announce

    # -- recording ----------------------------------------------------------------------

    def on(self, pid: int, budget: int | None = None) -> dict[str, Any]:
        task = self.symbols.live(pid)
        budget = DEFAULT_BUDGET if budget is None else budget
        if not isinstance(budget, int) or isinstance(budget, bool) or not (
                MIN_BUDGET <= budget <= MAX_BUDGET):
            raise DebugError(E.BAD_ARGUMENT, f"the history budget must be {MIN_BUDGET >> 20}.."
                             f"{MAX_BUDGET >> 20} MiB")
        ctx = task.ctx
        others = sum(t.ctx.history.budget for t in self.kernel.tasks.values()
                     if t is not task and not t.ended and t.ctx.history is not None)
        if others + budget > TOTAL_BUDGET:
            raise DebugError(E.BAD_ARGUMENT, f"a history of {budget >> 20} MiB would bring the "
                             f"executive's to {(others + budget) >> 20} MiB, over its "
                             f"{TOTAL_BUDGET >> 20} MiB: give a smaller budget_mb or stop "
                             "recording another task (history.off)")
        if ctx.history is None:
            ctx.history = History(self.kernel.machine, ctx, budget)
        else:
            ctx.history.budget = budget
        return self.status(pid)

    def off(self, pid: int) -> dict[str, Any]:
        task = self.symbols.get(pid).task
        history = task.ctx.history
        if history is not None and task.ctx.steps < history.end and not task.ended:
            history.truncate()                  # leave the past: this is the present now
        task.ctx.history = None
        return self.status(pid)

    def status(self, pid: int) -> dict[str, Any]:
        task = self.symbols.get(pid).task
        history = task.ctx.history
        if history is None:
            return {"pid": pid, "recording": False}
        return {"pid": pid, **history.status()}

    def forget(self, task: Task) -> None:
        task.ctx.history = None

    def changed(self, task: Task) -> None:
        """A debugger write: made in the past, it starts a new timeline."""
        history = task.ctx.history
        if history is not None and task.ctx.steps < history.end:
            history.truncate()

    # -- going back ----------------------------------------------------------------------

    def step_back(self, pid: int, unit: str = "instruction") -> dict[str, Any]:
        if unit not in ("instruction", "line"):
            raise DebugError(E.BAD_ARGUMENT, f"unit must be instruction or line, not {unit!r}")
        task, history = self._rewindable(pid)
        now = task.ctx.steps
        if now <= history.start:
            raise DebugError(E.HISTORY_START, f"task {pid} is at the start of its history "
                             f"(step {history.start})")
        target = now - 1 if unit == "instruction" else self._line_start(task, history, now)
        history.goto(target)
        self.announce(task, "step", reverse=True, unit=unit, steps=task.ctx.steps)
        return self._where(task)

    def continue_back(self, pid: int) -> dict[str, Any]:
        """Back to the latest breakpoint hit before now (its condition holding), or to the
        start of the history."""
        task, history = self._rewindable(pid)
        now = task.ctx.steps
        bounds = [c.steps for c in history.checkpoints if c.steps < now] or [history.start]
        for index in range(len(bounds) - 1, -1, -1):
            first = bounds[index]
            last = bounds[index + 1] if index + 1 < len(bounds) else now
            hit = self._last_hit(task, history, first, last)
            if hit is not None:
                step, bp = hit
                history.goto(step)
                self.announce(task, "breakpoint", reverse=True, breakpoint_id=bp,
                              steps=task.ctx.steps)
                return self._where(task)
        history.goto(history.start)
        self.announce(task, "history_start", reverse=True, steps=task.ctx.steps)
        return self._where(task)

    def _last_hit(self, task: Task, history: History, first: int,
                  last: int) -> tuple[int, int] | None:
        """The latest step in [first, last) that reaches a breakpoint of the task whose
        condition holds there: (step, breakpoint id)."""
        ctx = task.ctx
        history.goto(first)
        found = None
        while ctx.steps < last:
            stop = history.replay(last - ctx.steps, stop_at_breakpoints=True, at_end=False)
            if stop.reason.value != "breakpoint":
                break
            bp = self._holding(task, ctx.pc)
            if bp is not None and ctx.steps < last:
                found = (ctx.steps, bp)
            ctx.skip_breakpoint = ctx.pc
        return found

    def _holding(self, task: Task, pc: int) -> int | None:
        for bp in self.breakpoints.at(task.pid, pc):
            if not bp.enabled or bp.kind != "breakpoint" or bp.temporary:
                continue
            try:
                if bp.condition is None or bp.condition.holds(self.scope_of(task)):
                    return bp.id
            except ConditionError:
                return bp.id
        return None

    def _line_start(self, task: Task, history: History, now: int) -> int:
        """The step where the source line executed before the current one began."""
        table = self.symbols.get(task.pid).table
        if table is None:
            raise DebugError(E.NO_LINE_INFO, f"task {task.pid} has no line information: "
                             "step back by instruction")

        def line(pc: int):
            info = table.line_for(pc)
            return (info.file, info.line) if info is not None else None
        current = line(task.ctx.pc)
        span = LINE_WINDOW
        while True:
            first = max(history.start, now - span)
            window = history.pcs(first, now)
            lines = [line(pc) for pc in window.pcs]
            j = len(lines) - 1
            while j >= 0 and (lines[j] is None or lines[j] == current):
                j -= 1
            if j >= 0:
                while j > 0 and lines[j - 1] == lines[j]:
                    j -= 1
                if j > 0 or first == history.start:
                    return window.start + j
            elif first == history.start:
                return history.start
            span *= 4

    def _rewindable(self, pid: int) -> tuple[Task, History]:
        task = self.symbols.live(pid)
        history = task.ctx.history
        if history is None:
            raise DebugError(E.NOT_RECORDING, f"task {pid} is not being recorded: turn history "
                             "on first (history.on)")
        require_stopped(task, "go back")
        return task, history

    def _where(self, task: Task) -> dict[str, Any]:
        ctx = task.ctx
        return {"pid": task.pid, "pc": ctx.pc, "steps": ctx.steps,
                **self.symbols.describe(task.pid, ctx.pc), **self.status(task.pid)}
