import time

import pytest

from hsx.kernel.clock import Clock, RealClock, VirtualClock


def test_real_clock_is_monotonic_seconds():
    clock: Clock = RealClock()
    a = clock.now()
    b = clock.now()
    assert b >= a and abs(a - time.monotonic()) < 1.0


def test_virtual_clock_follows_retired_instructions():
    clock: Clock = VirtualClock(instructions_per_second=1000)
    assert clock.now() == 0.0
    clock.advance_instructions(500)
    assert clock.now() == 0.5
    for _ in range(500):
        clock.advance_instructions(1)
    assert clock.now() == 1.0                     # exact: no per-step float drift
    assert clock.total_instructions == 1000


def test_virtual_clock_jumps_to_the_next_deadline_when_idle():
    clock = VirtualClock(instructions_per_second=1_000_000, start=10.0)
    clock.advance_to(12.5)
    assert clock.now() == 12.5
    clock.advance_instructions(250_000)
    assert clock.now() == 12.75
    clock.advance_to(1.0)                         # never backwards
    assert clock.now() == 12.75
    assert clock.total_instructions == 250_000


def test_virtual_clock_rejects_nonsense():
    with pytest.raises(ValueError):
        VirtualClock(instructions_per_second=0)
    with pytest.raises(ValueError):
        VirtualClock().advance_instructions(-1)
