"""The `PersistenceStore` interface behind persistent values, and its debounce.

A store keeps raw f16 values keyed by (app, persist key).  What the value registry and
the executive's timer call is `PersistenceStore`; every backend (SQLite, an FRAM image,
flash pages) shares the debounce below and provides only `_commit` (write a batch, all or
nothing, durable when it returns) and `_stored` (read what was committed).

Writes are debounced on the kernel's clock, not with threads: the kernel asks
`next_due()` when to come back and calls `flush_due(now)`.  `close()` writes whatever is
still pending.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple, Protocol

# A value rewritten faster than its debounce would never reach the store; a pending
# write is therefore committed at the latest this many debounce periods after it began.
MAX_DEFER_PERIODS = 4


class PersistKey(NamedTuple):
    """Where a value lives: its app's name and the value's persist key (1..0xFFFE)."""

    app: str
    key: int


class PersistError(Exception):
    """The store cannot be used (not a store, unreadable, full, disk full)."""


class PersistenceStore(Protocol):
    """What the value registry's persistence needs."""

    location: str             # for people: "sqlite:values.sqlite3", "flash:values.flash"
    path: str                 # the file it lives in (the debugger keeps its state beside it)

    def load(self, key: PersistKey) -> int | None: ...
    def schedule_write(self, key: PersistKey, raw: int, debounce_ms: int, now: float) -> None: ...
    def next_due(self) -> float | None: ...
    def flush_due(self, now: float) -> int: ...
    def flush(self) -> int: ...
    def close(self) -> None: ...


@dataclass
class _Pending:
    raw: int
    due: float
    latest: float           # the debounce may push `due` back, but never past this


class DebouncedStore:
    """Trailing-edge debounce over a backend's `_commit` and `_stored`."""

    location = ""

    def __init__(self) -> None:
        self._pending: dict[PersistKey, _Pending] = {}

    # -- what a backend provides ------------------------------------------------------------
    def _commit(self, records: dict[PersistKey, int]) -> None:
        """Write every record or none; durable when it returns (PersistError otherwise)."""
        raise NotImplementedError

    def _stored(self, key: PersistKey) -> int | None:
        raise NotImplementedError

    def _close(self) -> None:
        raise NotImplementedError

    # -- the interface -----------------------------------------------------------------------
    def load(self, key: PersistKey) -> int | None:
        """The stored raw f16, counting a write still waiting for its debounce."""
        pending = self._pending.get(key)
        return pending.raw if pending is not None else self._stored(key)

    def schedule_write(self, key: PersistKey, raw: int, debounce_ms: int, now: float) -> None:
        """Store `raw` at `key` once it has been stable for `debounce_ms` (0: at once).

        Trailing edge: a newer write for the same key replaces the pending one and pushes
        its deadline back, so only the last value of a burst reaches the store.
        """
        if not 0 <= raw <= 0xFFFF:
            raise ValueError(f"raw f16 0x{raw:x} out of range")
        if debounce_ms <= 0:
            self._pending.pop(key, None)
            self._commit({key: raw})
            return
        delay = debounce_ms / 1000.0
        previous = self._pending.get(key)
        latest = previous.latest if previous else now + MAX_DEFER_PERIODS * delay
        self._pending[key] = _Pending(raw, min(now + delay, latest), latest)

    def next_due(self) -> float | None:
        """When the earliest pending write falls due (for the kernel's timer), or None."""
        return min((p.due for p in self._pending.values()), default=None)

    def due(self, now: float) -> list[PersistKey]:
        return [key for key, p in self._pending.items() if p.due <= now]

    def flush_due(self, now: float) -> int:
        """Commit the writes whose debounce has run out, in one batch."""
        return self._commit_pending(self.due(now))

    def flush(self) -> int:
        """Commit every pending write now, in one batch."""
        return self._commit_pending(list(self._pending))

    @property
    def pending(self) -> int:
        return len(self._pending)

    def close(self) -> None:
        """Flush, then close; closing twice is harmless."""
        if self.closed:
            return
        try:
            self.flush()
        finally:
            self._close()

    @property
    def closed(self) -> bool:
        raise NotImplementedError

    def __enter__(self):
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _commit_pending(self, keys: list[PersistKey]) -> int:
        if keys:
            self._commit({key: self._pending[key].raw for key in keys})
            for key in keys:
                del self._pending[key]
        return len(keys)
