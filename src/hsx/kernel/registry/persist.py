"""A `PersistenceStore` in SQLite: the host's default stand-in for a device's FRAM.

Every commit is one SQLite transaction in WAL mode with full sync, so a process killed
(or a machine losing power) mid-write leaves either the old or the new records, never
a damaged file or half a batch.
"""
from __future__ import annotations

import os
import sqlite3
import time

from .store import MAX_DEFER_PERIODS, DebouncedStore, PersistError, PersistKey

_SCHEMA = """
CREATE TABLE IF NOT EXISTS value_store (
    app     TEXT    NOT NULL,
    key     INTEGER NOT NULL,
    raw     INTEGER NOT NULL CHECK (raw BETWEEN 0 AND 65535),
    updated REAL    NOT NULL,
    PRIMARY KEY (app, key)
) WITHOUT ROWID
"""

__all__ = ["MAX_DEFER_PERIODS", "PersistError", "PersistKey", "PersistStore"]


class PersistStore(DebouncedStore):
    """Persisted f16 values keyed by (app, persist key) in one SQLite file."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        super().__init__()
        self.path = os.fspath(path)
        self.location = f"sqlite:{self.path}"
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

    @property
    def closed(self) -> bool:
        return self._db is None

    def _stored(self, key: PersistKey) -> int | None:
        try:
            row = self._conn().execute("SELECT raw FROM value_store WHERE app = ? AND key = ?",
                                       key).fetchone()
        except sqlite3.Error as error:
            raise PersistError(f"value store {self.path}: {error}") from None
        return None if row is None else int(row[0])

    def _close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None

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
