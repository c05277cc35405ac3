"""The SQLite value store, and how the value registry restores and saves through it
(what every store does is in tests/kernel/backends/test_store_conformance.py)."""
import sqlite3

import pytest

from hsx.image.model import ValueSpec
from hsx.isa.f16 import float_to_f16 as f16
from hsx.kernel.registry import (
    NOTIFY,
    Auth,
    PersistError,
    PersistKey,
    PersistMode,
    PersistStore,
    ValFlag,
    ValStatus,
    ValueDescriptor,
)

K = PersistKey("motor", 17)


def stored(path, key=K):
    """What is on disk, read through a separate connection."""
    with sqlite3.connect(path) as db:
        row = db.execute("SELECT raw FROM value_store WHERE app = ? AND key = ?", key).fetchone()
    return None if row is None else row[0]


# -- the store ---------------------------------------------------------------------------

def test_store_uses_wal(store):
    with sqlite3.connect(store.path) as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_not_a_database(tmp_path):
    path = tmp_path / "junk.db"
    path.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(PersistError, match="junk.db"):
        PersistStore(path)


# -- registry and store ------------------------------------------------------------------

def persistent(key=17, debounce=0, **kw):
    return ValueDescriptor(persist_key=key, debounce_ms=debounce, **kw)


def test_stored_value_wins_over_the_declared_init(make_values, store, events):
    store.schedule_write(K, f16(99.0), 0, now=0)
    values = make_values(store=store)
    values.register_from_metadata(3, [ValueSpec(1, 2, init_f16=f16(12.5), persist_key=17)],
                                  app="motor")
    assert values.get(3, 0x0102).raw == f16(99.0)
    assert events.of("value_registered")[0][1]["restored"] is True


def test_a_stored_zero_is_restored_too(make_values, store):
    store.schedule_write(K, 0, 0, now=0)
    values = make_values(store=store)
    values.register(3, 1, 2, ValFlag.PERSIST, Auth.PUBLIC, persistent(), f16(5), app="motor")
    assert values.get(3, 0x0102).raw == 0


def test_nothing_stored_keeps_init(make_values, store):
    values = make_values(store=store)
    values.register(3, 1, 2, ValFlag.PERSIST, Auth.PUBLIC, persistent(), f16(5), app="motor")
    assert values.get(3, 0x0102).raw == f16(5)


def test_a_stored_value_outside_the_range_is_ignored(make_values, store):
    store.schedule_write(K, f16(500), 0, now=0)
    values = make_values(store=store)
    values.register(3, 1, 2, ValFlag.PERSIST, Auth.PUBLIC,
                    persistent(min_f16=f16(0), max_f16=f16(100)), f16(5), app="motor")
    assert values.get(3, 0x0102).raw == f16(5)


def test_values_survive_a_restart(tmp_path, make_values):
    path = tmp_path / "v.db"
    specs = [ValueSpec(1, 2, init_f16=f16(1), persist_key=17)]
    first = PersistStore(path)
    values = make_values(store=first)
    values.register_from_metadata(3, specs, app="motor")
    values.set(9, 0x0102, f16(18.5), Auth.PUBLIC, 0.0)       # debounced: still pending
    first.close()                                            # executive shutdown
    with PersistStore(path) as second:
        restarted = make_values(store=second)
        restarted.register_from_metadata(1, specs, app="motor")
        assert restarted.get(1, 0x0102).raw == f16(18.5)


def test_a_reload_right_after_a_kill_sees_the_pending_write(make_values, store):
    values = make_values(store=store)
    spec = [ValueSpec(1, 2, persist_key=17)]
    values.register_from_metadata(3, spec, app="motor")
    values.set(3, 0x0102, f16(7), Auth.PUBLIC, 0.0)
    values.release_task(3)
    values.register_from_metadata(4, spec, app="motor")
    assert values.get(4, 0x0102).raw == f16(7)
    assert store.flush_due(1.0) == 1 and stored(store.path) == f16(7)


def test_sets_are_debounced_through_the_store(make_values, store):
    values = make_values(store=store)
    values.register(3, 1, 2, ValFlag.PERSIST, Auth.PUBLIC, persistent(debounce=75), 0,
                    app="motor")
    for i, t in enumerate((1.0, 1.02, 1.04)):
        values.set(3, 0x0102, f16(i + 1), Auth.PUBLIC, t)
    assert store.flush_due(1.1) == 0
    assert store.flush_due(1.115) == 1 and stored(store.path) == f16(3)


def test_volatile_values_are_not_written(make_values, store):
    values = make_values(store=store)
    values.register(3, 1, 2, 0, Auth.PUBLIC, persistent(), 0, app="motor")   # key, no flag
    values.set(3, 0x0102, f16(1), Auth.PUBLIC, 0)
    assert store.pending == 0 and stored(store.path) is None


def test_persistent_values_without_a_store_behave_as_volatile(values):
    values.register(3, 1, 2, ValFlag.PERSIST, Auth.PUBLIC, persistent(), 0)
    assert values.set(3, 0x0102, f16(1), Auth.PUBLIC, 0).changed


# -- VAL_PERSIST -------------------------------------------------------------------------

def test_persist_refusals(make_values, store):
    values = make_values(store=store)
    assert values.persist(3, 0x0102, PersistMode.SAVE, 0) is ValStatus.ENOENT
    values.register(3, 1, 2, 0, Auth.PUBLIC, persistent(), 0, app="motor")
    values.register(3, 1, 3, 0, Auth.PUBLIC, ValueDescriptor(), 0, app="motor")
    assert values.persist(4, 0x0102, PersistMode.SAVE, 0) is ValStatus.EPERM
    assert values.persist(3, 0x0102, 3, 0) is ValStatus.EINVAL
    assert values.persist(3, 0x0103, PersistMode.LOAD, 0) is ValStatus.EINVAL    # no key
    assert values.persist(3, 0x0103, PersistMode.VOLATILE, 0) is ValStatus.OK


def test_persist_save_without_a_stored_value_saves_the_current_one(make_values, store):
    values = make_values(store=store)
    values.register(3, 1, 2, 0, Auth.PUBLIC, persistent(), f16(4), app="motor")
    assert values.persist(3, 0x0102, PersistMode.SAVE, 0) is ValStatus.OK
    assert values.info(0x0102).flags & ValFlag.PERSIST
    assert stored(store.path) == f16(4)
    values.set(3, 0x0102, f16(6), Auth.PUBLIC, 1)
    assert stored(store.path) == f16(6)


def test_persist_load_restores_now_and_saves_nothing(make_values, store, mail, events):
    store.schedule_write(K, f16(9), 0, now=0)
    values = make_values(store=store)
    values.register(3, 1, 2, 0, Auth.PUBLIC, persistent(), f16(4), app="motor")
    values.subscribe(5, 0x0102, 1)
    assert values.persist(3, 0x0102, PersistMode.LOAD, 2.0) is ValStatus.OK
    assert values.get(3, 0x0102).raw == f16(9)
    assert mail.to(5, 1) == [NOTIFY.pack(0x0102, f16(4), f16(9))]
    assert events.of("value_changed")[-1][1]["reason"] == "restore"
    assert values.info(0x0102).persist_mode is PersistMode.LOAD
    values.set(3, 0x0102, f16(1), Auth.PUBLIC, 3.0)
    assert stored(store.path) == f16(9)


def test_persist_volatile_stops_saving(make_values, store):
    values = make_values(store=store)
    values.register(3, 1, 2, ValFlag.PERSIST, Auth.PUBLIC, persistent(), 0, app="motor")
    values.set(3, 0x0102, f16(1), Auth.PUBLIC, 0)
    assert values.persist(3, 0x0102, PersistMode.VOLATILE, 0) is ValStatus.OK
    assert not values.info(0x0102).flags & ValFlag.PERSIST
    values.set(3, 0x0102, f16(2), Auth.PUBLIC, 1)
    assert stored(store.path) == f16(1)
