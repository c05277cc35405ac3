"""Property tests: random interleavings of mailbox operations against a simple model."""
from collections import deque

from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from hsx.kernel.constants import MESSAGE_HEADER_BYTES as HDR
from hsx.kernel.constants import MbxFlag, MbxMode, MbxStatus
from hsx.kernel.mailbox import MailboxManager

PIDS = st.sampled_from([1, 2, 3, 4])
CAPACITY = 48


class QueueMachine(RuleBasedStateMachine):
    """One queue-mode mailbox: every message is received exactly once, in order, by
    someone; capacity is respected; no task waits while a message is queued; a tap
    sees messages in order with every gap flagged."""

    def __init__(self):
        super().__init__()
        self.mbx = MailboxManager()
        self.mbx.bind(0, "app:q", CAPACITY)
        self.handles = {pid: self.mbx.open(pid, "app:q").handle for pid in (1, 2, 3, 4)}
        self.tap = self.mbx.open(9, "app:q", MbxMode.TAP).handle
        self.queue: deque[bytes] = deque()      # model: sent, not yet received
        self.waiting: list[int] = []            # model: FIFO of blocked pids
        self.sent: list[bytes] = []
        self.received: list[bytes] = []
        self.tapped: list[bytes] = []
        self.counter = 0

    def used(self) -> int:
        return sum(len(p) + HDR for p in self.queue)

    def take_wakes(self, wakes):
        for wake in wakes:
            assert wake.result.status is MbxStatus.OK
            assert wake.pid == self.waiting.pop(0), "woke someone other than the oldest waiter"
            assert wake.result.message.payload == self.queue.popleft()
            self.received.append(wake.result.message.payload)

    @rule(pid=PIDS, size=st.integers(0, 44))
    def send(self, pid, size):
        if pid in self.waiting:
            return
        self.counter += 1
        payload = (b"%d:" % self.counter).ljust(size, b".")
        result = self.mbx.send(pid, self.handles[pid], payload)
        if len(payload) + HDR > CAPACITY:
            assert result.status is MbxStatus.MSG_TOO_LARGE
        elif self.used() + len(payload) + HDR > CAPACITY:
            assert result.status is MbxStatus.WOULDBLOCK and not result.wakes
        else:
            assert result.status is MbxStatus.OK
            assert len(result.wakes) == (1 if self.waiting else 0)
            self.sent.append(payload)
            self.queue.append(payload)
            self.take_wakes(result.wakes)

    @rule(pid=PIDS)
    def recv(self, pid):
        if pid in self.waiting:
            return
        result = self.mbx.recv(pid, self.handles[pid])
        if self.queue:
            assert result.message.payload == self.queue.popleft()
            self.received.append(result.message.payload)
        else:
            assert result.status is MbxStatus.NO_DATA

    @precondition(lambda self: not self.queue)
    @rule(pid=PIDS)
    def block(self, pid):
        if pid not in self.waiting:
            self.mbx.add_waiter(pid, self.handles[pid])
            self.waiting.append(pid)

    @rule(pid=PIDS)
    def timeout(self, pid):
        wake = self.mbx.expire_waiter(pid)
        assert (wake is not None) == (pid in self.waiting)
        if wake:
            assert wake.result.status is MbxStatus.TIMEOUT
            self.waiting.remove(pid)

    @rule(pid=PIDS)
    def reopen(self, pid):
        assert self.mbx.close(pid, self.handles[pid]) is MbxStatus.OK
        if pid in self.waiting:
            self.waiting.remove(pid)
        self.handles[pid] = self.mbx.open(pid, "app:q").handle

    @rule()
    def drain_tap(self):
        while (copy := self.mbx.recv(9, self.tap)).status is MbxStatus.OK:
            index = self.sent.index(copy.message.payload)
            expected = self.sent.index(self.tapped[-1]) + 1 if self.tapped else 0
            assert index >= expected
            assert bool(copy.message.flags & MbxFlag.OVERRUN) == (index > expected)
            self.tapped.append(copy.message.payload)

    @invariant()
    def accounting(self):
        [d] = self.mbx.snapshot()["descriptors"]
        assert 0 <= d["bytes_used"] == self.used() <= CAPACITY
        assert d["queue_depth"] == len(self.queue)
        assert d["waiters"] == self.waiting
        assert not (self.queue and self.waiting), "a task waits while a message is queued"

    @invariant()
    def nothing_lost_or_duplicated(self):
        assert self.received + list(self.queue) == self.sent


class FanoutMachine(RuleBasedStateMachine):
    """One fan-out mailbox, drop policy, where readers also send: each reader sees the
    others' messages in send order, never twice and never its own, and every gap it
    suffers is announced by OVERRUN on the next message it gets."""

    def __init__(self):
        super().__init__()
        self.mbx = MailboxManager()
        self.mbx.bind(0, "shared:bus", CAPACITY, MbxMode.FANOUT_DROP)
        self.handles = {pid: self.mbx.open(pid, "shared:bus").handle for pid in (1, 2, 3, 4)}
        self.sent: list[tuple[int, bytes]] = []              # (sender pid, payload)
        self.last_seen = {pid: -1 for pid in self.handles}   # index into sent

    @rule(pid=st.sampled_from([1, 1, 1, 2, 3, 4]), size=st.integers(0, 20))
    def send(self, pid, size):
        payload = (b"%d:" % len(self.sent)).ljust(size, b".")
        assert self.mbx.send(pid, self.handles[pid], payload).status is MbxStatus.OK
        self.sent.append((pid, payload))

    @rule(pid=st.sampled_from([2, 3, 4]))
    def recv(self, pid):
        result = self.mbx.recv(pid, self.handles[pid])
        owed = [i for i in range(self.last_seen[pid] + 1, len(self.sent)) if self.sent[i][0] != pid]
        if result.status is MbxStatus.NO_DATA:
            if self.sent and self.sent[-1][0] != pid:
                assert not owed, "the newest message is never dropped, so NO_DATA means caught up"
            return
        index = next(i for i, (_, p) in enumerate(self.sent) if p == result.message.payload)
        assert index in owed, "a reader got its own, an old or a repeated message"
        skipped = index != owed[0]
        assert bool(result.message.flags & MbxFlag.OVERRUN) == skipped
        self.last_seen[pid] = index

    @invariant()
    def capacity_respected(self):
        [d] = self.mbx.snapshot()["descriptors"]
        assert 0 <= d["bytes_used"] <= CAPACITY


TestQueueMachine = QueueMachine.TestCase
TestQueueMachine.settings = settings(max_examples=150, stateful_step_count=40, deadline=None)
TestFanoutMachine = FanoutMachine.TestCase
TestFanoutMachine.settings = settings(max_examples=100, stateful_step_count=40, deadline=None)
