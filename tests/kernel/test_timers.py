from hypothesis import given
from hypothesis import strategies as st

from hsx.kernel.timers import TimerHeap


def test_empty():
    timers = TimerHeap()
    assert timers.next_deadline() is None and timers.pop_expired(1e9) == [] and len(timers) == 0


def test_expires_in_deadline_order_and_ties_in_arming_order():
    timers = TimerHeap()
    for key, deadline in [("c", 3.0), ("a1", 1.0), ("b", 2.0), ("a2", 1.0), ("a3", 1.0)]:
        timers.schedule(key, deadline)
    assert timers.next_deadline() == 1.0
    assert timers.pop_expired(0.999) == []
    assert timers.pop_expired(2.0) == ["a1", "a2", "a3", "b"]
    assert timers.next_deadline() == 3.0 and len(timers) == 1 and "c" in timers
    assert timers.pop_expired(10.0) == ["c"]
    assert timers.pop_expired(10.0) == []


def test_cancel():
    timers = TimerHeap()
    timers.schedule(1, 1.0)
    timers.schedule(2, 2.0)
    assert timers.cancel(1) and not timers.cancel(1) and not timers.cancel(99)
    assert 1 not in timers and timers.deadline(1) is None
    assert timers.next_deadline() == 2.0
    assert timers.pop_expired(5.0) == [2]


def test_rescheduling_replaces_the_old_deadline():
    timers = TimerHeap()
    timers.schedule(("sleep", 4), 1.0)
    timers.schedule(("sleep", 4), 5.0)
    assert len(timers) == 1 and timers.deadline(("sleep", 4)) == 5.0
    assert timers.pop_expired(2.0) == []
    assert timers.pop_expired(5.0) == [("sleep", 4)]


def test_stale_entries_do_not_accumulate():
    timers = TimerHeap()
    for i in range(10_000):
        timers.schedule(i % 3, float(i))
        if i % 2:
            timers.cancel(i % 3)
    assert len(timers._heap) <= 2 * len(timers) + 17


@given(st.lists(st.tuples(st.sampled_from(["arm", "cancel", "pop"]), st.integers(0, 5),
                          st.integers(0, 20))))
def test_matches_a_simple_model(ops):
    timers, model = TimerHeap(), {}
    order = 0
    for op, key, t in ops:
        if op == "arm":
            timers.schedule(key, float(t))
            model[key] = (float(t), order)
            order += 1
        elif op == "cancel":
            assert timers.cancel(key) == (model.pop(key, None) is not None)
        else:
            due = sorted((v, k) for k, v in model.items() if v[0] <= t)
            assert timers.pop_expired(float(t)) == [k for _, k in due]
            for _, k in due:
                del model[k]
        assert len(timers) == len(model)
        assert timers.next_deadline() == (min(v[0] for v in model.values()) if model else None)
