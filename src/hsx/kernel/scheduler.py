"""Which ready task runs next: strict priority levels, round-robin within a level.

Higher `priority` numbers run first (default 10).  A task that used up its quantum goes
to the tail of its level; a task that wakes goes to the tail too, so nobody is starved
within a level.  The scheduler only orders PIDs: states belong to the kernel.
"""
from __future__ import annotations

from collections import deque

DEFAULT_PRIORITY = 10


class Scheduler:
    def __init__(self) -> None:
        self._levels: dict[int, deque[int]] = {}
        self._order: list[int] = []          # priorities present, highest first
        self._queued: dict[int, int] = {}    # pid -> priority level it is queued at

    def __len__(self) -> int:
        return len(self._queued)

    def __contains__(self, pid: int) -> bool:
        return pid in self._queued

    def enqueue(self, pid: int, priority: int = DEFAULT_PRIORITY) -> None:
        """Make `pid` eligible (at the tail of its level); no effect if already queued."""
        if pid in self._queued:
            return
        level = self._levels.get(priority)
        if level is None:
            level = self._levels[priority] = deque()
            self._order.append(priority)
            self._order.sort(reverse=True)
        level.append(pid)
        self._queued[pid] = priority

    def remove(self, pid: int) -> None:
        """Take `pid` out (it blocked, paused or ended)."""
        priority = self._queued.pop(pid, None)
        if priority is not None:
            self._levels[priority].remove(pid)

    def pick(self) -> int | None:
        """The PID to run next (it stays queued; call `rotate` after its turn)."""
        for priority in self._order:
            level = self._levels[priority]
            if level:
                return level[0]
        return None

    def rotate(self, pid: int) -> None:
        """`pid` finished a turn and is still ready: move it to the tail of its level."""
        priority = self._queued.get(pid)
        if priority is None:
            return
        level = self._levels[priority]
        if level and level[0] == pid:
            level.rotate(-1)
        else:
            level.remove(pid)
            level.append(pid)

    def front_level(self) -> deque[int]:
        """The ready PIDs of the highest non-empty priority level, in turn order."""
        for priority in self._order:
            level = self._levels[priority]
            if level:
                return level
        return deque()

    def bring_to_front(self, pid: int) -> None:
        """Rotate `pid`'s level so `pid` runs next, keeping the turn order."""
        level = self._levels[self._queued[pid]]
        level.rotate(-level.index(pid))

    def reprioritise(self, pid: int, priority: int) -> None:
        if pid in self._queued:
            self.remove(pid)
            self.enqueue(pid, priority)

    def queued(self) -> list[int]:
        """Ready PIDs in the order they would run."""
        return [pid for priority in self._order for pid in self._levels[priority]]
