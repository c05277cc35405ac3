"""Deadlines the executive must act on: sleep wake-ups and mailbox receive timeouts.

A binary heap of (deadline, seq, key).  Cancelling or re-arming only forgets the live
entry for the key; the stale heap entry is skipped when it surfaces (lazy deletion),
and the heap is rebuilt when stale entries outnumber live ones, so memory stays
bounded.  `seq` breaks ties, so equal deadlines fire in the order they were armed.
"""
from __future__ import annotations

import heapq
import itertools
from collections.abc import Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)


class TimerHeap(Generic[K]):
    def __init__(self) -> None:
        self._heap: list[tuple[float, int, K]] = []
        self._live: dict[K, tuple[float, int]] = {}
        self._seq = itertools.count()

    def __len__(self) -> int:
        return len(self._live)

    def __contains__(self, key: object) -> bool:
        return key in self._live

    def schedule(self, key: K, deadline: float) -> None:
        """Arm the timer for `key`, replacing any timer it already had."""
        entry = (deadline, next(self._seq))
        self._live[key] = entry
        heapq.heappush(self._heap, (*entry, key))
        self._compact_if_stale()

    def cancel(self, key: K) -> bool:
        """Disarm; False if `key` had no timer."""
        if self._live.pop(key, None) is None:
            return False
        self._compact_if_stale()
        return True

    def deadline(self, key: K) -> float | None:
        entry = self._live.get(key)
        return entry[0] if entry else None

    def next_deadline(self) -> float | None:
        self._drop_stale_head()
        return self._heap[0][0] if self._heap else None

    def pop_expired(self, now: float) -> list[K]:
        """Keys whose deadline is <= now, earliest first; they are disarmed."""
        expired = []
        while True:
            self._drop_stale_head()
            if not self._heap or self._heap[0][0] > now:
                return expired
            _, _, key = heapq.heappop(self._heap)
            del self._live[key]
            expired.append(key)

    def _is_live(self, item: tuple[float, int, K]) -> bool:
        return self._live.get(item[2]) == item[:2]

    def _drop_stale_head(self) -> None:
        while self._heap and not self._is_live(self._heap[0]):
            heapq.heappop(self._heap)

    def _compact_if_stale(self) -> None:
        if len(self._heap) > 2 * len(self._live) + 16:
            self._heap = [item for item in self._heap if self._is_live(item)]
            heapq.heapify(self._heap)
