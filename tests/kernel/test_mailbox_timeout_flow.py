"""How the kernel combines the manager, the timer heap and a virtual clock for RECV timeouts."""
from hsx.kernel.clock import VirtualClock
from hsx.kernel.constants import MbxStatus
from hsx.kernel.mailbox import MailboxManager
from hsx.kernel.timers import TimerHeap


def blocking_recv(mbx, timers, clock, pid, handle, timeout_ms):
    result = mbx.recv(pid, handle)
    if result.status is MbxStatus.NO_DATA:
        deadline = clock.now() + timeout_ms / 1000
        mbx.add_waiter(pid, handle, deadline, timeout=timeout_ms)
        timers.schedule(pid, deadline)
    return result


def test_timeout_fires_at_the_deadline_and_a_delivered_wait_cancels_its_timer():
    mbx, timers, clock = MailboxManager(), TimerHeap(), VirtualClock(instructions_per_second=1000)
    a = mbx.open(1, "app:q").handle
    b = mbx.open(2, "app:q").handle
    blocking_recv(mbx, timers, clock, 1, a, timeout_ms=5)
    blocking_recv(mbx, timers, clock, 2, b, timeout_ms=50)

    clock.advance_instructions(3)                         # 3 ms: nothing due yet
    assert timers.pop_expired(clock.now()) == []
    [wake] = mbx.send(3, mbx.open(3, "app:q").handle, b"hi").wakes
    assert wake.pid == 1 and timers.cancel(wake.pid)      # delivered: disarm its timeout

    clock.advance_to(timers.next_deadline())              # everyone idle: jump, don't spin
    assert clock.now() == 0.050
    [expired] = [mbx.expire_waiter(pid) for pid in timers.pop_expired(clock.now())]
    assert (expired.pid, expired.result.status) == (2, MbxStatus.TIMEOUT)
    assert timers.next_deadline() is None
