"""Where the executive's notion of time comes from.

The daemon runs on real monotonic time.  Tests and deterministic replay run on
virtual time derived from retired instructions, so the same program always sees the
same clock, and an idle executive can jump straight to the next deadline instead of
sleeping for it.
"""
from __future__ import annotations

import time
from typing import Protocol


class Clock(Protocol):
    def now(self) -> float:
        """Seconds on a monotonic scale (the origin is arbitrary)."""
        ...


class RealClock:
    # `time.monotonic` itself, not a method calling it: the clock is read for every
    # event (a task's every write) and a Python frame more cost as much as the read.
    now = staticmethod(time.monotonic)


class VirtualClock:
    """Time = start + retired instructions / rate, plus any jumps made while idle.

    Kept as an exact instruction count since the last jump, so advancing one
    instruction at a time never accumulates floating-point drift.
    """

    def __init__(self, instructions_per_second: int = 1_000_000, start: float = 0.0):
        if instructions_per_second <= 0:
            raise ValueError("instructions_per_second must be positive")
        self.instructions_per_second = instructions_per_second
        self._base = start
        self._instructions = 0      # since `_base`
        self.total_instructions = 0

    def now(self) -> float:
        return self._base + self._instructions / self.instructions_per_second

    def advance_instructions(self, count: int) -> None:
        """Account for `count` instructions retired by any task."""
        if count < 0:
            raise ValueError("cannot retire a negative number of instructions")
        self._instructions += count
        self.total_instructions += count

    def advance_to(self, t: float) -> None:
        """Jump to `t` (used when every task is blocked); never moves backwards."""
        if t > self.now():
            self._base, self._instructions = t, 0
