"""The store behind persistent values: SQLite standing in for a device's FRAM.

Every commit is one SQLite transaction in WAL mode with full sync, so a process killed
(or a machine losing power) mid-write leaves either the old or the new records, never
a damaged file or half a batch.  Writes are debounced on the kernel's clock, not with
threads: the kernel asks `next_due()` when to come back and calls `flush_due(now)`.
`close()` writes whatever is still pending.
"""
from __future__ import annotations

import os
import sqlite3
import time
from dataclasses import dataclass
from typing import NamedTuple

# A value rewritten faster than its debounce would never reach the store; a pending
# write is therefore committed at the latest this many debounce periods after it began.
MAX_DEFER_PERIODS = 4

_SCHEMA = """
CREATE TABLE IF NOT EXISTS value_store (
    app     TEXT    NOT NULL,
    key     INTEGER NOT NULL,
    raw     INTEGER NOT NULL CHECK (raw BETWEEN 0 AND 65535),
    updated REAL    NOT NULL,
    PRIMARY KEY (app, key)
) WITHOUT ROWID
"""


class PersistKey(NamedTuple):
    """Where a value lives: its app's name and the value's persist key (1..0xFFFE)."""

    app: str
    key: int


class PersistError(Exception):
    """The store file cannot be used (not a database, unreadable, disk full)."""


@dataclass
class _Pending:
    raw: int
    due: float
    latest: float           # the debounce may push `due` back, but never past this


class PersistStore:
    """Persisted f16 values keyed by (app, persist key), with debounced writes."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = os.fspath(path)
        self._pending: dict[PersistKey, _Pending] = {}
        try:
            # Autocommit mode: every transaction below is an explicit BEGIN … COMMIT.  The
            # daemon may create the store on one thread and run the kernel on another; the
            # store is still used by one thread at a time.
            self._db: sqlite3.Connection | None = sqlite3.connect(
                self.path, isolation_level=None, check_same_thread=False)
            self._db.execute("PRAGMA busy_timeout = 5000")
            self._db.execute("PRAGMA journal_mode = WAL")
            self._db.execute("PRAGMA synchronous = FULL")
            self._db.execute(_SCHEMA)
        except sqlite3.Error as error:
            raise PersistError(f"value store {self.path}: {error}") from None

    def load(self, key: PersistKey) -> int | None:
        """The stored raw f16, counting a write still waiting for its debounce."""
        pending = self._pending.get(key)
        if pending is not None:
            return pending.raw
        try:
            row = self._conn().execute("SELECT raw FROM value_store WHERE app = ? AND key = ?",
                                       key).fetchone()
        except sqlite3.Error as error:
            raise PersistError(f"value store {self.path}: {error}") from None
        return None if row is None else int(row[0])

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
        """Commit the writes whose debounce has run out, in one transaction."""
        return self._commit_pending(self.due(now))

    def flush(self) -> int:
        """Commit every pending write now, in one transaction."""
        return self._commit_pending(list(self._pending))

    @property
    def pending(self) -> int:
        return len(self._pending)

    def close(self) -> None:
        """Flush, then close; closing twice is harmless."""
        if self._db is None:
            return
        try:
            self.flush()
        finally:
            self._db.close()
            self._db = None

    def __enter__(self) -> PersistStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _commit_pending(self, keys: list[PersistKey]) -> int:
        if keys:
            self._commit({key: self._pending[key].raw for key in keys})
            for key in keys:
                del self._pending[key]
        return len(keys)

    def _commit(self, records: dict[PersistKey, int]) -> None:
        db = self._conn()
        stamp = time.time()
        try:
            db.execute("BEGIN IMMEDIATE")
            try:
                db.executemany(
                    "INSERT INTO value_store (app, key, raw, updated) VALUES (?, ?, ?, ?) "
                    "ON CONFLICT (app, key) DO UPDATE SET raw = excluded.raw, "
                    "updated = excluded.updated",
                    [(k.app, k.key, raw, stamp) for k, raw in records.items()])
                db.execute("COMMIT")
            except BaseException:
                db.execute("ROLLBACK")
                raise
        except sqlite3.Error as error:
            raise PersistError(f"value store {self.path}: {error}") from None

    def _conn(self) -> sqlite3.Connection:
        if self._db is None:
            raise PersistError(f"value store {self.path} is closed")
        return self._db
