"""Every PersistenceStore backend keeps values as the value registry needs (SQLite, an
FRAM image, flash pages): one suite, run once per backend.  What is committed is read
back through a second, independent opening of the same store."""
import pytest
from storekit import STORE_BACKENDS, open_store

from hsx.kernel.registry import PersistError, PersistKey
from hsx.kernel.registry.store import MAX_DEFER_PERIODS

K = PersistKey("motor", 17)


@pytest.fixture(params=STORE_BACKENDS)
def kind(request):
    return request.param


@pytest.fixture
def store(kind, tmp_path):
    with open_store(kind, tmp_path) as store:
        yield store


def committed(kind, directory, key=K):
    """What a fresh opening of the store finds (what survives the process)."""
    with open_store(kind, directory) as again:
        return again.load(key)


def test_immediate_write_survives_a_reopen(kind, tmp_path):
    store = open_store(kind, tmp_path)
    assert store.load(K) is None
    store.schedule_write(K, 0x1234, 0, now=0.0)
    assert committed(kind, tmp_path) == 0x1234
    store.close()
    store.close()                                        # harmless
    with open_store(kind, tmp_path) as again:
        assert again.load(K) == 0x1234
        assert again.load(PersistKey("other", 17)) is None      # apps have their own keys
        assert again.load(PersistKey("motor", 18)) is None


def test_trailing_edge_debounce_on_virtual_time(kind, store, tmp_path):
    store.schedule_write(K, 1, 100, now=0.0)
    assert store.next_due() == pytest.approx(0.1)
    assert store.flush_due(0.05) == 0
    store.schedule_write(K, 2, 100, now=0.05)            # a newer value pushes the deadline
    assert store.load(K) == 2                            # reads see the pending write
    assert store.due(0.1) == [] and store.next_due() == pytest.approx(0.15)
    assert committed(kind, tmp_path) is None
    assert store.flush_due(store.next_due()) == 1
    assert committed(kind, tmp_path) == 2
    assert store.pending == 0 and store.next_due() is None


def test_a_value_that_never_settles_is_still_written(store):
    t = 0.0
    while not store.due(t):
        store.schedule_write(K, int(t * 1000), 100, now=t)
        t = round(t + 0.05, 3)
    assert t <= MAX_DEFER_PERIODS * 0.1


def test_flush_and_close_write_everything_pending(kind, tmp_path):
    store = open_store(kind, tmp_path)
    store.schedule_write(K, 5, 1000, now=0.0)
    store.schedule_write(PersistKey("motor", 18), 6, 1000, now=0.0)
    assert store.flush() == 2 and committed(kind, tmp_path) == 5
    store.schedule_write(K, 7, 60_000, now=1.0)
    store.close()                                        # shutdown flushes
    assert committed(kind, tmp_path) == 7
    with pytest.raises(PersistError):
        store.schedule_write(K, 8, 0, now=2.0)


def test_an_immediate_write_replaces_a_pending_one(kind, store, tmp_path):
    store.schedule_write(K, 1, 100, now=0.0)
    store.schedule_write(K, 2, 0, now=0.01)
    assert store.pending == 0 and committed(kind, tmp_path) == 2


def test_bad_raw_is_refused(store):
    with pytest.raises(ValueError):
        store.schedule_write(K, 0x10000, 0, now=0.0)


def test_many_updates_keep_the_latest_of_each_value(kind, tmp_path):
    """Far more writes than the FRAM or flash holds at once: the log reclaims its oldest
    sectors again and again, copying forward what is still current."""
    keys = [PersistKey(f"app{n % 4}", 1 + n) for n in range(24)]
    latest = {}
    with open_store(kind, tmp_path) as store:
        store.schedule_write(PersistKey("static", 1), 0xBEEF, 0, now=0.0)   # never rewritten
        for step in range(600):
            key = keys[step * 7 % len(keys)]
            latest[key] = step
            store.schedule_write(key, step, 0, now=0.0)
    with open_store(kind, tmp_path) as again:
        assert {key: again.load(key) for key in keys} == latest
        assert again.load(PersistKey("static", 1)) == 0xBEEF
