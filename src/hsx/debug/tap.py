"""Per-instruction observation of chosen tasks, at no cost to the others.

The machine runs a context through its exact, recording interpreter only while the
context has a trace ring (`ctx.trace`, see docs/machine.md); every other context keeps
the translated fast path with no trace code in it.  A `Tap` *is* such a ring (a deque
of length 1, so `Machine.last_trace` still works) whose `append` also hands each
retired instruction's `TraceRecord` to the observers registered for that task: the
trace buffer and the watches.  With no observers left the ring is removed again.  An
observer may also give an `end` callable: the machine calls `run_ended` when a run of
the task returns (the trace buffer emits the events of the run's records then).
"""
from __future__ import annotations

from collections import deque
from typing import Callable

from hsx.kernel.task import Task
from hsx.vm import TraceRecord

Observer = Callable[[TraceRecord], None]


class Tap(deque):
    def __init__(self) -> None:
        super().__init__(maxlen=1)
        self.observers: dict[str, Observer] = {}
        self._ends: dict[str, Callable[[], None]] = {}
        self._calls: tuple[Observer, ...] = ()
        self._end_calls: tuple[Callable[[], None], ...] = ()
        self.plans: dict = {}            # the machine's notes on the task's instructions

    def set(self, key: str, observer: Observer, end: Callable[[], None] | None = None) -> None:
        self.observers[key] = observer
        self._ends.pop(key, None)
        if end is not None:
            self._ends[key] = end
        self._calls, self._end_calls = tuple(self.observers.values()), tuple(self._ends.values())

    def discard(self, key: str) -> None:
        end = self._ends.pop(key, None)
        self.observers.pop(key, None)
        self._calls, self._end_calls = tuple(self.observers.values()), tuple(self._ends.values())
        if end is not None:
            end()

    def append(self, record: TraceRecord) -> None:
        super().append(record)
        for observe in self._calls:
            observe(record)

    def run_ended(self) -> None:
        for end in self._end_calls:
            end()


class Taps:
    """Which tasks are observed, and by whom (a key per observer kind)."""

    def __init__(self) -> None:
        self._taps: dict[int, Tap] = {}

    def add(self, task: Task, key: str, observer: Observer,
            end: Callable[[], None] | None = None) -> None:
        tap = self._taps.get(task.pid)
        if tap is None or task.ctx.trace is not tap:
            tap = self._taps[task.pid] = Tap()
            task.ctx.trace = tap
        tap.set(key, observer, end)

    def remove(self, task: Task, key: str) -> None:
        tap = self._taps.get(task.pid)
        if tap is None:
            return
        tap.discard(key)
        if not tap.observers:
            del self._taps[task.pid]
            if task.ctx.trace is tap:
                task.ctx.trace = None
