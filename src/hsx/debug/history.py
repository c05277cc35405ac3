"""Reverse execution: a task's recorded past, and going back to any point of it
(docs/debugger.md, "Reverse execution").

While recording, a `History` sits in the task's context (`ctx.history`) and sees every
run of it. It keeps

* **checkpoints**: PC, PSW, the step count and the task's memory (its registers are in
  it) every `interval` instructions, memory as 1 KiB pages shared with the previous
  checkpoint where they did not change;
* **inputs**: what came from outside the task's own instructions — the effect of every
  SVC on its memory and registers (a received message, a value, the time, file data, a
  bus frame), and changes made while it was not executing (a blocked receive completed,
  a debugger's write), each at the step count where it happened.

An earlier point is reached by restoring the latest checkpoint before it and running
forward with the recorded inputs applied instead of calling the kernel, so the state is
byte for byte what the forward run had. Runs inside the past replay the same way (their
SVCs do not reach the kernel again) until the recorded end, where recording goes on
live. A change made while in the past (a `set`, a memory write) starts a new timeline:
the recorded future is dropped. Nothing is undone outside the task: what it sent, what
other tasks did, what it printed.
"""
from __future__ import annotations

import bisect
from dataclasses import dataclass, field, replace
from typing import Callable

from hsx.vm import ContextState, Stop, StopReason

PAGE = 1024
DEFAULT_INTERVAL = 100_000           # instructions between checkpoints
DEFAULT_BUDGET = 32 << 20            # bytes of history per task


@dataclass
class Checkpoint:
    steps: int
    pc: int
    psw: int
    pages: tuple[bytes, ...]
    own_bytes: int                   # bytes of pages not shared with the checkpoint before


@dataclass
class Input:
    """A change of the task's state that its own instructions did not make."""

    steps: int                       # the task's step count when it applies
    pages: list[tuple[int, bytes]]   # (page index, new content)
    pc: int | None = None            # set when the PC/PSW/state changed too
    psw: int | None = None
    state: ContextState | None = None

    @property
    def size(self) -> int:
        return sum(len(p) for _, p in self.pages) + 64


@dataclass
class _Window:
    """PCs of a run of steps (for line steps and searches backwards)."""

    start: int
    pcs: list[int] = field(default_factory=list)


def paginate(data: bytes, previous: tuple[bytes, ...] | None) -> tuple[tuple[bytes, ...], int]:
    """`data` as pages, reusing `previous`'s page objects where equal; (pages, new bytes)."""
    pages, fresh = [], 0
    for index, offset in enumerate(range(0, len(data), PAGE)):
        page = data[offset:offset + PAGE]
        if previous is not None and previous[index] == page:
            page = previous[index]
        else:
            fresh += len(page)
        pages.append(page)
    return tuple(pages), fresh


def changed_pages(before: bytes, after: bytes) -> list[tuple[int, bytes]]:
    return [(index, after[offset:offset + PAGE])
            for index, offset in enumerate(range(0, len(after), PAGE))
            if before[offset:offset + PAGE] != after[offset:offset + PAGE]]


class History:
    """One task's recorded past (see the module docstring)."""

    def __init__(self, machine, ctx, budget: int = DEFAULT_BUDGET,
                 interval: int = DEFAULT_INTERVAL) -> None:
        self.machine, self.ctx = machine, ctx
        self.budget, self.interval = budget, interval
        self.checkpoints: list[Checkpoint] = []
        self.inputs: list[Input] = []
        self.input_steps: list[int] = []     # inputs' step counts, for bisect
        self.bytes = 0
        self.end = ctx.steps                # the latest recorded step (the live frontier)
        self.dropped = 0                    # checkpoints forgotten to stay within budget
        self.restarts = 0                   # times an outside change it could not see reset it
        self._seen: tuple[bytes, int, int, ContextState] | None = None  # state at its last stop
        self._last_pc = ctx.pc              # where its last run left it
        self._checkpoint()

    # -- what the machine calls ---------------------------------------------------------

    def run(self, ctx, budget: int) -> Stop:
        if ctx.steps < self.end:
            return self.replay(min(budget, self.end - ctx.steps), stop_at_breakpoints=True,
                                at_end=True)
        self._outside_changes()
        machine, real = self.machine, self.machine.svc
        machine.svc = self._recording(real)
        executed, stop = 0, None
        try:
            while True:
                segment = budget - executed
                if self._next_checkpoint() > ctx.steps:
                    segment = min(segment, self._next_checkpoint() - ctx.steps)
                stop = machine.run_plain(ctx, segment)
                executed += stop.executed
                self.end = ctx.steps
                if ctx.steps >= self._next_checkpoint() and ctx.state is ContextState.READY:
                    self._checkpoint()
                if stop.reason is not StopReason.BUDGET or executed >= budget:
                    break
        finally:
            machine.svc = real
        self._after(stop)
        return replace(stop, executed=executed)

    def step(self, ctx) -> Stop:
        if ctx.steps < self.end:
            ctx.skip_breakpoint = ctx.pc            # a single step ignores a breakpoint
            return self.replay(1, stop_at_breakpoints=False, at_end=True)
        self._outside_changes()
        machine, real = self.machine, self.machine.svc
        machine.svc = self._recording(real)
        try:
            stop = machine.step_plain(ctx)
        finally:
            machine.svc = real
        self.end = ctx.steps
        self._after(stop)
        return stop

    # -- recording ------------------------------------------------------------------------

    def _recording(self, real: Callable):
        ctx = self.ctx

        def svc(target, module: int, function: int):
            if target is not ctx:                   # another task (a command handler call)
                return real(target, module, function)
            before, pc, psw = bytes(ctx.mem), ctx.pc, ctx.psw
            request = real(target, module, function)
            pages = changed_pages(before, ctx.mem)
            if pages or ctx.pc != pc or ctx.psw != psw:
                self._add_input(Input(ctx.steps, pages, ctx.pc if ctx.pc != pc else None,
                                      ctx.psw if ctx.psw != psw else None))
            return request
        return svc

    def _after(self, stop: Stop) -> None:
        """Where a run left the task. When it stopped for a reason (not its time slice
        running out) the kernel or a debugger may change it before the next run: the
        state is kept to find those changes."""
        self._last_pc = self.ctx.pc
        if stop.reason is not StopReason.BUDGET:
            self._remember()

    def _remember(self) -> None:
        ctx = self.ctx
        self._seen = (bytes(ctx.mem), ctx.pc, ctx.psw, ctx.state)

    def _outside_changes(self) -> None:
        """Record what changed since the task last stopped; a change it has no copy to
        compare with (the PC moved while it was between time slices: a command handler
        run in it) restarts the history from here."""
        ctx = self.ctx
        if self._seen is None:
            if ctx.pc != self._last_pc:
                self.restart()
            return
        before, pc, psw, state = self._seen
        self._seen = None
        pages = changed_pages(before, ctx.mem)
        if pages or ctx.pc != pc or ctx.psw != psw or ctx.state is not state:
            self._add_input(Input(ctx.steps, pages, ctx.pc, ctx.psw, ctx.state))

    def restart(self) -> None:
        """Forget the past: the history starts again at the task's current state."""
        self.checkpoints, self.inputs, self.input_steps, self.bytes = [], [], [], 0
        self.end, self._seen, self._last_pc = self.ctx.steps, None, self.ctx.pc
        self.restarts += 1
        self._checkpoint()

    def _add_input(self, record: Input) -> None:
        self.inputs.append(record)
        self.input_steps.append(record.steps)
        self.bytes += record.size
        self._trim()

    def _next_checkpoint(self) -> int:
        return self.checkpoints[-1].steps + self.interval

    def _checkpoint(self) -> None:
        ctx = self.ctx
        previous = self.checkpoints[-1].pages if self.checkpoints else None
        pages, fresh = paginate(bytes(ctx.mem), previous)
        self.checkpoints.append(Checkpoint(ctx.steps, ctx.pc, ctx.psw, pages, fresh + 64))
        self.bytes += fresh + 64
        self._trim()

    def _trim(self) -> None:
        """Forget the oldest checkpoints (and the inputs before them) over budget; the
        pages the oldest shared with the next one become that one's own."""
        while self.bytes > self.budget and len(self.checkpoints) > 1:
            oldest, successor = self.checkpoints.pop(0), self.checkpoints[0]
            inherited = sum(len(p) for p, q in zip(successor.pages, oldest.pages) if p is q)
            successor.own_bytes += inherited
            self.bytes += inherited - oldest.own_bytes
            self.dropped += 1
            keep = bisect.bisect_left(self.input_steps, successor.steps)
            self.bytes -= sum(i.size for i in self.inputs[:keep])
            del self.inputs[:keep], self.input_steps[:keep]

    # -- the past -------------------------------------------------------------------------

    @property
    def start(self) -> int:
        return self.checkpoints[0].steps

    def goto(self, target: int) -> None:
        """Bring the task to the state it had after `target` steps (start <= target <= end)."""
        if not self.start <= target <= self.end:
            raise ValueError(f"step {target} is outside the history ({self.start}..{self.end})")
        index = bisect.bisect_right([c.steps for c in self.checkpoints], target) - 1
        self._restore(self.checkpoints[index])
        self.replay(target - self.ctx.steps, stop_at_breakpoints=False, at_end=False)
        self.ctx.skip_breakpoint = self.ctx.pc       # going on from here: no re-hit

    def _restore(self, checkpoint: Checkpoint) -> None:
        ctx = self.ctx
        ctx.mem[:] = b"".join(checkpoint.pages)
        ctx.pc, ctx.psw, ctx.steps = checkpoint.pc, checkpoint.psw, checkpoint.steps
        ctx.state, ctx.exit_status, ctx.fault = ContextState.READY, None, None
        ctx.skip_breakpoint = None
        self._seen = None

    def _apply(self, record: Input) -> None:
        ctx = self.ctx
        for index, content in record.pages:
            ctx.mem[index * PAGE:index * PAGE + len(content)] = content
        if record.pc is not None:
            ctx.pc = record.pc
        if record.psw is not None:
            ctx.psw = record.psw
        if record.state is ContextState.READY and ctx.state is not ContextState.READY:
            ctx.state, ctx.fault, ctx.exit_status = ContextState.READY, None, None

    def replay(self, budget: int, *, stop_at_breakpoints: bool, at_end: bool) -> Stop:
        """Run up to `budget` instructions inside the past: SVCs take their recorded
        effect, outside changes are applied where they happened. Breakpoints stop it
        only when asked (a user's run through the past); the history's own searches and
        rewinds pass through them."""
        ctx, machine = self.ctx, self.machine
        steps_of = self.input_steps
        real = machine.svc
        removed = [] if stop_at_breakpoints else sorted(ctx.breakpoints)
        for addr in removed:
            machine.remove_breakpoint(ctx, addr)

        def replayed(target, module: int, function: int):
            if target is not ctx:
                return real(target, module, function)
            return None                         # its effect is the recorded input below
        machine.svc = replayed
        executed, stop = 0, Stop(StopReason.BUDGET, 0, ctx.pc)
        try:
            while True:
                index = bisect.bisect_left(steps_of, ctx.steps)
                while index < len(steps_of) and steps_of[index] == ctx.steps:
                    self._apply(self.inputs[index])          # inputs due right here
                    index += 1
                if executed >= budget or ctx.state is not ContextState.READY:
                    break
                upto = steps_of[index] if index < len(steps_of) else None
                segment = budget - executed if upto is None else min(budget - executed,
                                                                     upto - ctx.steps)
                stop = machine.run_plain(ctx, segment)
                executed += stop.executed
                if stop.reason is StopReason.BUDGET or (
                        stop.reason is StopReason.BRK and not stop_at_breakpoints):
                    continue
                if not (index < len(steps_of) and steps_of[index] == ctx.steps):
                    break                 # a stop that nothing recorded here undoes
        finally:
            machine.svc = real
            for addr in removed:
                machine.add_breakpoint(ctx, addr)
        self._last_pc = ctx.pc
        if at_end and ctx.steps >= self.end:
            self._remember()
        return replace(stop, executed=executed)

    def truncate(self) -> None:
        """A change made in the past starts a new timeline from the current point."""
        ctx = self.ctx
        now = ctx.steps
        if now >= self.end:
            return
        keep = bisect.bisect_left(self.input_steps, now)
        self.bytes -= sum(i.size for i in self.inputs[keep:])
        del self.inputs[keep:], self.input_steps[keep:]
        while len(self.checkpoints) > 1 and self.checkpoints[-1].steps > now:
            self.bytes -= self.checkpoints.pop().own_bytes
        self.end = now
        self._checkpoint()

    def pcs(self, first: int, last: int) -> _Window:
        """The PC before each step in [first, last): replayed one instruction at a time
        (the task's state is left at `last`)."""
        self.goto(first)
        window = _Window(first)
        ctx, machine = self.ctx, self.machine
        removed = sorted(ctx.breakpoints)
        for addr in removed:
            machine.remove_breakpoint(ctx, addr)
        try:
            while ctx.steps < last:
                window.pcs.append(ctx.pc)
                if self.replay(1, stop_at_breakpoints=True, at_end=False).executed == 0:
                    break
        finally:
            for addr in removed:
                machine.add_breakpoint(ctx, addr)
        return window

    def status(self) -> dict:
        return {"recording": True, "start": self.start, "end": self.end,
                "position": self.ctx.steps, "replaying": self.ctx.steps < self.end,
                "checkpoints": len(self.checkpoints), "inputs": len(self.inputs),
                "bytes": self.bytes, "budget": self.budget, "interval": self.interval,
                "dropped_checkpoints": self.dropped}
