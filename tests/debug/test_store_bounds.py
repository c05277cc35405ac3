"""The debug store keeps its newest rows only, so its file stays bounded whatever
clients export, load or set (issue 17, group 4)."""
from __future__ import annotations

from unittest import mock

from hsx.debug import store as store_module
from hsx.debug.store import DebugStore, StoredBreakpoint


def test_each_table_keeps_its_newest_rows(tmp_path):
    store = DebugStore(tmp_path / "debug.sqlite3")
    keep = {"trace_exports": 3, "symbol_tables": 4, "breakpoints": 5}
    with mock.patch.dict(store_module.KEEP, keep):
        ids = [store.save_trace("app", 1, None, [f"line {n}"]) for n in range(10)]
        for n in range(10):
            store.save_symbols("app", f"hash{n}", "{}")
        for n in range(10):
            store.save("app", StoredBreakpoint(address=4 * n))
        store.save_symbols("app", "hash0", "{}")          # written again: the newest now
    assert [t["id"] for t in store.traces()] == ids[-3:]
    assert store.trace_lines(ids[-1]) == ["line 9"] and store.trace_lines(ids[0]) is None
    assert store.symbols("app", "hash0") == "{}" and store.symbols("app", "hash9") == "{}"
    assert store.symbols("app", "hash6") is None
    assert [e.address for e in store.entries("app")] == [20, 24, 28, 32, 36]
    store.close()
