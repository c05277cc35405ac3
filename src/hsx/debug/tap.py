"""Per-instruction observation of chosen tasks, at no cost to the others.

The machine runs a context through its exact, recording interpreter only while the
context has a trace ring (`ctx.trace`, see docs/machine.md); every other context keeps
the translated fast path with no trace code in it.  A `Tap` *is* such a ring (a deque
of length 1, so `Machine.last_trace` still works) whose `append` also hands each
retired instruction's `TraceRecord` to the observers registered for that task: the
trace buffer and the watches.  With no observers left the ring is removed again.
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

    def append(self, record: TraceRecord) -> None:
        super().append(record)
        for observe in tuple(self.observers.values()):
            observe(record)


class Taps:
    """Which tasks are observed, and by whom (a key per observer kind)."""

    def __init__(self) -> None:
        self._taps: dict[int, Tap] = {}

    def add(self, task: Task, key: str, observer: Observer) -> None:
        tap = self._taps.get(task.pid)
        if tap is None or task.ctx.trace is not tap:
            tap = self._taps[task.pid] = Tap()
            task.ctx.trace = tap
        tap.observers[key] = observer

    def remove(self, task: Task, key: str) -> None:
        tap = self._taps.get(task.pid)
        if tap is None:
            return
        tap.observers.pop(key, None)
        if not tap.observers:
            del self._taps[task.pid]
            if task.ctx.trace is tap:
                task.ctx.trace = None
