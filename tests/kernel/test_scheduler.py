"""Round-robin within a priority level, strict priority across levels."""
from hypothesis import given, strategies as st

from hsx.kernel.scheduler import Scheduler


def run_turns(s: Scheduler, turns: int) -> list[int]:
    order = []
    for _ in range(turns):
        pid = s.pick()
        order.append(pid)
        s.rotate(pid)
    return order


def test_round_robin_is_strictly_fair():
    s = Scheduler()
    for pid in (1, 2, 3):
        s.enqueue(pid)
    assert run_turns(s, 7) == [1, 2, 3, 1, 2, 3, 1]


def test_higher_priority_runs_first_and_lower_waits():
    s = Scheduler()
    s.enqueue(1, priority=10)
    s.enqueue(2, priority=20)
    s.enqueue(3, priority=20)
    assert run_turns(s, 4) == [2, 3, 2, 3]
    s.remove(2)
    s.remove(3)
    assert s.pick() == 1


def test_blocked_tasks_leave_and_rejoin_at_the_tail():
    s = Scheduler()
    for pid in (1, 2, 3):
        s.enqueue(pid)
    s.remove(1)
    assert run_turns(s, 2) == [2, 3]
    s.enqueue(1)
    assert s.queued() == [2, 3, 1]
    s.enqueue(1)                     # idempotent
    assert len(s) == 3 and 1 in s


def test_reprioritise_moves_a_task():
    s = Scheduler()
    s.enqueue(1)
    s.enqueue(2)
    s.reprioritise(2, 99)
    assert s.pick() == 2
    assert s.pick() is not None and Scheduler().pick() is None


@given(st.lists(st.integers(1, 8), min_size=1, max_size=8, unique=True), st.integers(1, 50))
def test_every_ready_task_gets_a_turn_within_one_round(pids, rounds):
    s = Scheduler()
    for pid in pids:
        s.enqueue(pid)
    order = run_turns(s, len(pids) * rounds)
    for pid in pids:
        assert order.count(pid) == rounds
