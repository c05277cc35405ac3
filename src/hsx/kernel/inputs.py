"""Bounded queues between the outside world and a task.

Whatever feeds a task from outside (CAN frames from the bus, host input) goes through a
queue of fixed size: when it is full the *oldest* item is dropped and counted, so a task
that stops reading can never make the executive's memory grow, and the sender never
waits.  The kernel checks the counters between batches (`InputWatch.poll`): new drops
show in the task's `ps` row (`input_dropped`) and as one `input_dropped` event per queue
and batch; a task's queues go with it when it ends.
"""
from __future__ import annotations

import queue
from typing import Any, Callable, Protocol

CAN_QUEUE = 256                  # frames waiting for one task


class DropOldestQueue(queue.Queue):
    """A `queue.Queue` that never blocks its producers: full drops the oldest item."""

    def __init__(self, limit: int) -> None:
        super().__init__()
        self.limit = limit
        self.dropped = 0

    def _put(self, item: Any) -> None:          # called with the queue's lock held
        if len(self.queue) >= self.limit:
            self.queue.popleft()
            self.dropped += 1
        self.queue.append(item)


class Counted(Protocol):
    dropped: int
    limit: int


class InputWatch:
    """The input queues of every task, and how many each has dropped so far."""

    def __init__(self, emit: Callable[[str, int | None, dict[str, Any]], Any]) -> None:
        self._emit = emit
        self._sources: dict[int, dict[str, tuple[Counted, dict[str, int]]]] = {}

    def watch(self, pid: int, name: str, source: Counted, totals: dict[str, int]) -> None:
        """Follow `source`; its drops are counted into `totals[name]` (the task's
        `accounting.input_dropped`, shown by `ps`)."""
        self._sources.setdefault(pid, {})[name] = (source, totals)
        totals.setdefault(name, 0)

    def poll(self) -> None:
        for pid, sources in self._sources.items():
            for name, (source, totals) in sources.items():
                total = source.dropped
                if total != totals[name]:
                    self._emit("input_dropped", pid, {"queue": name,
                                                      "dropped": total - totals[name],
                                                      "total": total, "limit": source.limit})
                    totals[name] = total

    def release(self, pid: int) -> None:
        self.poll()
        self._sources.pop(pid, None)
