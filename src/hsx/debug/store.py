"""Debug state remembered across loads and executive restarts (SQLite).

- Breakpoints, keyed by app name and by a location that survives a rebuild: a source
  line, else a symbol plus offset, else (no symbols) a bare address.  Addresses are
  worked out again from the task's symbols each time the app is loaded.
- Symbol tables, keyed by app name and a hash of the image's code, so an app whose
  `.sym` file is gone still gets names when the same build is loaded again.
- Exported traces, so `trace.export` history can be listed and read back later.

Each table keeps its newest rows only (`KEEP`), so the store's file stays bounded
whatever clients export, load or set.
"""
from __future__ import annotations

import os
import sqlite3
from dataclasses import dataclass

from . import errors as E
from .errors import DebugError

_SCHEMA = """
CREATE TABLE IF NOT EXISTS breakpoints (
    app TEXT NOT NULL,
    key TEXT NOT NULL,
    symbol TEXT, offset INTEGER NOT NULL DEFAULT 0,
    file TEXT, line INTEGER,
    address INTEGER,
    condition TEXT,
    enabled INTEGER NOT NULL DEFAULT 1,
    PRIMARY KEY (app, key)
);
CREATE TABLE IF NOT EXISTS symbol_tables (
    app TEXT NOT NULL,
    code_hash TEXT NOT NULL,
    sym TEXT NOT NULL,
    PRIMARY KEY (app, code_hash)
);
CREATE TABLE IF NOT EXISTS trace_exports (
    id INTEGER PRIMARY KEY,
    app TEXT NOT NULL,
    pid INTEGER NOT NULL,
    path TEXT,
    records TEXT NOT NULL
)"""


KEEP = {"trace_exports": 32, "symbol_tables": 256, "breakpoints": 65536}


@dataclass(frozen=True)
class StoredBreakpoint:
    symbol: str | None = None
    offset: int = 0
    file: str | None = None
    line: int | None = None
    address: int | None = None
    condition: str | None = None
    enabled: bool = True

    @property
    def key(self) -> str:
        if self.file is not None and self.line is not None:
            where = f"line:{self.file}:{self.line}"
        elif self.symbol is not None:
            where = f"sym:{self.symbol}+{self.offset}"
        else:
            where = f"addr:{self.address}"
        return f"{where}|{self.condition or ''}"


class DebugStore:
    def __init__(self, path: str | os.PathLike) -> None:
        self.path = os.fspath(path)
        try:
            self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            self._db.execute("PRAGMA busy_timeout = 5000")
            self._db.executescript(_SCHEMA)
        except sqlite3.Error as error:
            raise DebugError(E.STORE, f"debug store {self.path}: {error}") from None

    def save(self, app: str, entry: StoredBreakpoint) -> None:
        self._run("INSERT OR REPLACE INTO breakpoints VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                  (app, entry.key, entry.symbol, entry.offset, entry.file, entry.line,
                   entry.address, entry.condition, int(entry.enabled)))
        self._keep_newest("breakpoints")

    def delete(self, app: str, entry: StoredBreakpoint) -> None:
        self._run("DELETE FROM breakpoints WHERE app = ? AND key = ?", (app, entry.key))

    def entries(self, app: str) -> list[StoredBreakpoint]:
        rows = self._run("SELECT symbol, offset, file, line, address, condition, enabled "
                         "FROM breakpoints WHERE app = ? ORDER BY rowid", (app,)).fetchall()
        return [StoredBreakpoint(s, o, f, ln, a, c, bool(e)) for s, o, f, ln, a, c, e in rows]

    def save_symbols(self, app: str, code_hash: str, sym_json: str) -> None:
        self._run("INSERT OR REPLACE INTO symbol_tables VALUES (?, ?, ?)",
                  (app, code_hash, sym_json))
        self._keep_newest("symbol_tables")

    def symbols(self, app: str, code_hash: str) -> str | None:
        row = self._run("SELECT sym FROM symbol_tables WHERE app = ? AND code_hash = ?",
                        (app, code_hash)).fetchone()
        return row[0] if row else None

    def save_trace(self, app: str, pid: int, path: str | None, lines: list[str]) -> int:
        """Keep an exported trace (its JSON lines); returns its id."""
        cursor = self._run("INSERT INTO trace_exports (app, pid, path, records) VALUES (?, ?, ?, ?)",
                           (app, pid, path, "\n".join(lines)))
        self._keep_newest("trace_exports")
        return int(cursor.lastrowid)

    def traces(self) -> list[dict]:
        rows = self._run("SELECT id, app, pid, path FROM trace_exports ORDER BY id", ()).fetchall()
        return [{"id": i, "app": a, "pid": p, "path": path} for i, a, p, path in rows]

    def trace_lines(self, trace_id: int) -> list[str] | None:
        row = self._run("SELECT records FROM trace_exports WHERE id = ?", (trace_id,)).fetchone()
        return row[0].split("\n") if row else None

    def _keep_newest(self, table: str) -> None:
        """Rows are numbered in the order written (a replaced row gets a new number), so
        the newest `KEEP[table]` numbers are the newest rows (at most that many)."""
        self._run(f"DELETE FROM {table} WHERE rowid <= (SELECT max(rowid) FROM {table}) - ?",
                  (KEEP[table],))

    def close(self) -> None:
        self._db.close()

    def _run(self, sql: str, args: tuple) -> sqlite3.Cursor:
        try:
            return self._db.execute(sql, args)
        except sqlite3.Error as error:
            raise DebugError(E.STORE, f"debug store {self.path}: {error}") from None
