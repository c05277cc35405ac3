"""Queue and fan-out delivery, blocking receivers, timeouts and taps."""
import pytest

from hsx.kernel.constants import MESSAGE_HEADER_BYTES as HDR
from hsx.kernel.constants import MbxFlag, MbxMode, MbxStatus
from hsx.kernel.mailbox import MailboxError, RecvInfo

OK = MbxStatus.OK
FANOUT_DROP = MbxMode.RDWR | MbxMode.FANOUT | MbxMode.FANOUT_DROP
FANOUT_BLOCK = MbxMode.RDWR | MbxMode.FANOUT | MbxMode.FANOUT_BLOCK


def payloads(mbx, pid, handle):
    got = []
    while (result := mbx.recv(pid, handle)).status is OK:
        got.append(result.message.payload)
    return got


# -- queue mode --------------------------------------------------------------------------

def test_queue_is_fifo_and_carries_header_fields(mbx):
    h = mbx.open(1, "app:q").handle
    r = mbx.open(2, "app:q").handle
    for i in range(3):
        assert mbx.send(1, h, b"m%d" % i, flags=0x100 | MbxFlag.OOB, channel=40 + i).length == 2
    first = mbx.recv(2, r)
    assert first.length == 2
    assert (first.message.flags, first.message.channel, first.message.src_pid) == (0x104, 40, 1)
    assert payloads(mbx, 2, r) == [b"m1", b"m2"]
    assert mbx.recv(2, r).status is MbxStatus.NO_DATA


def test_capacity_counts_payload_plus_header(mbx, events):
    mbx.bind(1, "app:svc_phase2", 16)
    h = mbx.open(1, "app:svc_phase2").handle
    assert mbx.send(1, h, b"12345678").status is OK                  # 8 + 8 = 16
    assert mbx.send(1, h, b"").status is MbxStatus.WOULDBLOCK
    [(pid, data)] = events.of("mailbox_backpressure")
    assert pid == 1 and data["policy"] == "single"
    assert (data["capacity"], data["bytes_used"], data["requested"]) == (16, 16, HDR)
    assert events.of("mailbox_error") == []                           # full is not an error
    mbx.recv(1, h)
    assert mbx.send(1, h, b"").status is OK
    assert mbx.recv(1, h).message.payload == b""                     # empty messages are real


def test_msg_too_large_on_send(mbx):
    mbx.bind(1, "svc:small", 16)
    h = mbx.open(1, "svc:small").handle
    assert mbx.send(1, h, b"x" * 9).status is MbxStatus.MSG_TOO_LARGE
    assert mbx.peek(1, h).depth == 0


def test_recv_with_small_buffer_keeps_the_message(mbx, events):
    h = mbx.open(1, "app:q").handle
    mbx.send(1, h, b"0123456789")
    too_small = mbx.recv(1, h, max_len=4)
    assert (too_small.status, too_small.length, too_small.message) == (MbxStatus.MSG_TOO_LARGE, 10, None)
    assert too_small.info == RecvInfo(MbxStatus.MSG_TOO_LARGE, 10)
    assert events.of("mailbox_error")[0][1]["status"] == MbxStatus.MSG_TOO_LARGE
    assert mbx.recv(1, h, max_len=10).message.payload == b"0123456789"


def test_sender_cannot_forge_overrun(mbx):
    h = mbx.open(1, "app:q").handle
    mbx.send(1, h, b"x", flags=MbxFlag.OVERRUN | MbxFlag.STDOUT)
    assert mbx.recv(1, h).message.flags == MbxFlag.STDOUT


@pytest.mark.parametrize("flags, channel", [(0x10000, 0), (0, -1), (0, 0x10000)])
def test_send_rejects_out_of_range_header_fields(mbx, flags, channel):
    h = mbx.open(1, "app:q").handle
    assert mbx.send(1, h, b"x", flags, channel).status is MbxStatus.INVALID_ARGUMENT


def test_peek(mbx):
    h = mbx.open(1, "app:q").handle
    assert mbx.peek(1, h).depth == 0 and mbx.peek(1, h).next_length == 0
    mbx.send(1, h, b"abc")
    mbx.send(1, h, b"de")
    peek = mbx.peek(1, h)
    assert (peek.status, peek.depth, peek.bytes_used, peek.next_length) == (OK, 2, 3 + 2 + 2 * HDR, 3)
    assert (peek.capacity, peek.mode) == (64, MbxMode.RDWR)
    assert mbx.peek(1, h).depth == 2                                  # peek consumes nothing


# -- blocking receivers --------------------------------------------------------------------

def test_each_message_wakes_exactly_one_waiter_in_fifo_order(mbx, events):
    mbx.bind(0, "shared:test")
    sender = mbx.open(9, "shared:test").handle
    handles = {pid: mbx.open(pid, "shared:test").handle for pid in (1, 2, 3)}
    for pid, h in handles.items():
        assert mbx.recv(pid, h).status is MbxStatus.NO_DATA
        mbx.add_waiter(pid, h, deadline=5.0, timeout=0xFFFF)
    woken = []
    for text in (b"a", b"b", b"c"):
        result = mbx.send(9, sender, text)
        assert len(result.wakes) == 1
        wake = result.wakes[0]
        woken.append((wake.pid, wake.result.message.payload))
        assert wake.result.info == RecvInfo(OK, 1, 0, 0, 9)
    assert woken == [(1, b"a"), (2, b"b"), (3, b"c")]
    assert mbx.send(9, sender, b"d").wakes == ()                      # nobody left waiting
    assert mbx.snapshot()["descriptors"][0]["queue_depth"] == 1
    wait = events.of("mailbox_wait")[0]
    assert wait == (1, {"descriptor": 1, "handle": 1, "timeout": 0xFFFF, "deadline": 5.0})
    assert [pid for pid, _ in events.of("mailbox_wake")] == [1, 2, 3]


def test_wake_hands_over_the_message_atomically(mbx):
    h = mbx.open(1, "pid:1").handle
    other = mbx.open(2, "pid:1").handle
    mbx.add_waiter(1, h)
    result = mbx.send(2, other, b"hello")
    assert result.wakes[0].result.message.payload == b"hello"
    assert mbx.recv(2, other).status is MbxStatus.NO_DATA             # nobody can steal it


def test_waiter_with_small_buffer_is_woken_with_msg_too_large(mbx):
    h1 = mbx.open(1, "app:q").handle
    h2 = mbx.open(2, "app:q").handle
    mbx.add_waiter(1, h1, max_len=2)
    mbx.add_waiter(2, h2, max_len=64)
    wakes = mbx.send(3, mbx.open(3, "app:q").handle, b"too long").wakes
    assert [(w.pid, w.result.status, w.result.length) for w in wakes] == [
        (1, MbxStatus.MSG_TOO_LARGE, 8), (2, OK, 8)]


def test_timeout(mbx, events):
    h = mbx.open(1, "shared:timeout_demo").handle
    mbx.add_waiter(1, h, deadline=0.005)
    wake = mbx.expire_waiter(1)
    assert (wake.pid, wake.handle, wake.result.status) == (1, h, MbxStatus.TIMEOUT)
    assert wake.result.info.pack() == RecvInfo(MbxStatus.TIMEOUT).pack()
    assert mbx.expire_waiter(1) is None                               # stale timer: harmless
    assert mbx.send(1, h, b"late").wakes == ()
    [(pid, data)] = events.of("mailbox_timeout")
    assert pid == 1 and data["status"] == MbxStatus.TIMEOUT and data["length"] == 0


def test_add_waiter_misuse_raises(mbx):
    h = mbx.open(1, "app:q").handle
    with pytest.raises(MailboxError):
        mbx.add_waiter(1, 99)
    mbx.send(1, h, b"x")
    with pytest.raises(MailboxError, match="receive it"):
        mbx.add_waiter(1, h)
    mbx.recv(1, h)
    mbx.add_waiter(1, h)
    with pytest.raises(MailboxError, match="already waiting"):
        mbx.add_waiter(1, h)


def test_closing_the_handle_cancels_the_wait(mbx):
    h = mbx.open(1, "app:q").handle
    keep = mbx.open(2, "app:q").handle
    mbx.add_waiter(1, h)
    mbx.close(1, h)
    assert mbx.send(2, keep, b"x").wakes == ()
    assert mbx.snapshot()["stats"]["waiter_count"] == 0


# -- fan-out ------------------------------------------------------------------------------

def fanout(mbx, mode, capacity=64, readers=(2, 3, 4)):
    mbx.bind(0, "shared:bus", capacity, mode)
    producer = mbx.open(1, "shared:bus").handle
    return producer, {pid: mbx.open(pid, "shared:bus").handle for pid in readers}


@pytest.mark.parametrize("mode", [FANOUT_DROP, FANOUT_BLOCK, MbxMode.FANOUT])
def test_fanout_every_reader_gets_every_message(mbx, mode):
    producer, readers = fanout(mbx, mode, capacity=128)
    for i in range(32):
        assert mbx.send(1, producer, b"packet-%02d" % i).status is OK
        for pid, h in readers.items():
            got = mbx.recv(pid, h)
            assert got.message.payload == b"packet-%02d" % i and not got.message.flags
    [d] = mbx.snapshot()["descriptors"]
    assert d["queue_depth"] == 0 and d["bytes_used"] == 0


def test_fanout_reclaims_only_when_all_readers_have_read(mbx):
    producer, readers = fanout(mbx, FANOUT_BLOCK, readers=(2, 3))
    mbx.send(1, producer, b"x")
    mbx.recv(2, readers[2])
    assert mbx.snapshot()["descriptors"][0]["queue_depth"] == 1
    mbx.recv(3, readers[3])
    assert mbx.snapshot()["descriptors"][0]["queue_depth"] == 0


def test_fanout_send_wakes_every_waiting_reader(mbx):
    producer, readers = fanout(mbx, FANOUT_DROP, readers=(5, 3, 7, 2))
    for pid, h in readers.items():
        mbx.add_waiter(pid, h)
    wakes = mbx.send(1, producer, b"fanout!").wakes
    assert [w.pid for w in wakes] == [5, 3, 7, 2]
    assert all(w.result.info == RecvInfo(OK, 7, 0, 0, 1) for w in wakes)


def test_fanout_drop_flags_overrun_on_the_slow_reader(mbx, events):
    producer, readers = fanout(mbx, FANOUT_DROP, capacity=16, readers=(2, 3))
    mbx.send(1, producer, b"first")
    assert mbx.recv(3, readers[3]).message.payload == b"first"        # 3 keeps up
    assert mbx.send(1, producer, b"second").status is OK               # drops "first" for 2
    slow = mbx.recv(2, readers[2]).message
    assert (slow.payload, slow.flags) == (b"second", MbxFlag.OVERRUN)
    fast = mbx.recv(3, readers[3]).message
    assert (fast.payload, fast.flags) == (b"second", 0)
    mbx.send(1, producer, b"third")
    assert mbx.recv(2, readers[2]).message.flags == 0                 # flag is one-shot
    [(pid, data)] = events.of("mailbox_overrun")
    assert pid == 1 and data["reason"] == "fanout_drop" and data["dropped_seq"] == 0
    assert data["dropped_length"] == 5


def test_fanout_block_refuses_until_the_slowest_reader_catches_up(mbx, events):
    producer, readers = fanout(mbx, FANOUT_BLOCK, capacity=16, readers=(2, 3))
    assert mbx.send(1, producer, b"first").status is OK
    assert mbx.send(1, producer, b"second").status is MbxStatus.WOULDBLOCK
    assert events.of("mailbox_backpressure")[0][1]["policy"] == "fanout_block"
    assert mbx.recv(2, readers[2]).message.payload == b"first"
    assert mbx.send(1, producer, b"second").status is MbxStatus.WOULDBLOCK
    got = mbx.recv(3, readers[3]).message
    assert (got.payload, got.flags) == (b"first", 0)
    assert mbx.send(1, producer, b"third").status is OK


def test_fanout_new_reader_starts_at_the_next_message(mbx):
    producer, readers = fanout(mbx, FANOUT_DROP, readers=(2,))
    mbx.send(1, producer, b"old")
    late = mbx.open(3, "shared:bus").handle
    mbx.send(1, producer, b"new")
    assert payloads(mbx, 3, late) == [b"new"]
    assert payloads(mbx, 2, readers[2]) == [b"old", b"new"]


def test_fanout_without_subscribers_keeps_nothing(mbx):
    mbx.bind(0, "shared:bus", 16, FANOUT_BLOCK)
    producer = mbx.open(1, "shared:bus").handle        # read-write, but its own messages are seen
    for _ in range(5):
        assert mbx.send(1, producer, b"12345678").status is OK
    assert mbx.snapshot()["descriptors"][0]["queue_depth"] == 0
    assert mbx.recv(1, producer).status is MbxStatus.NO_DATA


def test_fanout_participants_see_each_others_messages_but_not_their_own(mbx):
    mbx.bind(0, "shared:chat", 128, FANOUT_DROP)
    a = mbx.open(1, "shared:chat").handle
    b = mbx.open(2, "shared:chat").handle
    mbx.send(1, a, b"hi from a")
    mbx.send(2, b, b"hi from b")
    assert payloads(mbx, 1, a) == [b"hi from b"]
    assert payloads(mbx, 2, b) == [b"hi from a"]
    assert mbx.snapshot()["descriptors"][0]["queue_depth"] == 0


def test_read_write_publishers_hold_back_only_messages_they_did_not_send(mbx):
    mbx.bind(0, "shared:bus", 32, FANOUT_BLOCK)
    p1 = mbx.open(1, "shared:bus").handle
    p2 = mbx.open(2, "shared:bus", MbxMode.WRONLY).handle
    reader = mbx.open(3, "shared:bus").handle
    assert mbx.send(2, p2, b"from p2").status is OK
    assert mbx.recv(3, reader).message.payload == b"from p2"
    # p1 can read, so it is a subscriber that has not yet seen "from p2"
    assert mbx.snapshot()["descriptors"][0]["readers"] == [
        {"pid": 1, "handle": p1, "pending": 1}, {"pid": 3, "handle": reader, "pending": 0}]
    assert mbx.recv(1, p1).message.payload == b"from p2"
    assert mbx.snapshot()["descriptors"][0]["queue_depth"] == 0


def test_write_only_handles_and_publishers_do_not_hold_back_fanout(mbx):
    mbx.bind(0, "shared:bus", 16, FANOUT_BLOCK)
    reader = mbx.open(2, "shared:bus").handle
    mbx.open(3, "shared:bus", MbxMode.WRONLY)
    producer = mbx.open(1, "shared:bus").handle        # read-write, as old apps open it
    mbx.send(1, producer, b"12345678")
    mbx.recv(2, reader)
    assert mbx.send(1, producer, b"12345678").status is OK


def test_switching_queue_to_fanout_keeps_the_backlog(mbx):
    a = mbx.open(1, "app:m").handle
    b = mbx.open(2, "app:m").handle
    writer = mbx.open(3, "app:m", MbxMode.WRONLY).handle
    mbx.send(3, writer, b"backlog")
    assert mbx.bind(0, "app:m", 0, FANOUT_DROP).status is OK
    assert payloads(mbx, 1, a) == [b"backlog"]
    assert payloads(mbx, 2, b) == [b"backlog"]


def test_switching_fanout_to_queue_wakes_waiters_for_the_backlog(mbx):
    producer, readers = fanout(mbx, FANOUT_DROP, readers=(2, 3))
    mbx.send(1, producer, b"x")
    mbx.recv(2, readers[2])
    mbx.add_waiter(2, readers[2])                                      # has read its copy
    result = mbx.bind(0, "shared:bus", 0, MbxMode.RDWR)
    assert [(w.pid, w.result.message.payload) for w in result.wakes] == [(2, b"x")]
    assert mbx.recv(3, readers[3]).status is MbxStatus.NO_DATA        # one queue, one taker


def test_shrinking_capacity_never_drops_queued_messages(mbx):
    h = mbx.open(1, "app:q").handle
    for i in range(4):
        mbx.send(1, h, b"%d" % i)
    mbx.bind(0, "app:q", 16)
    assert mbx.send(1, h, b"x").status is MbxStatus.WOULDBLOCK
    assert payloads(mbx, 1, h) == [b"0", b"1", b"2", b"3"]
    assert mbx.send(1, h, b"x").status is OK


# -- taps ---------------------------------------------------------------------------------

def test_tap_gets_copies_without_consuming(mbx):
    mbx.bind(0, "shared:plain")
    owner = mbx.open(1, "shared:plain").handle
    tap = mbx.open(2, "shared:plain", MbxMode.TAP).handle
    mbx.send(1, owner, b"hello")
    assert mbx.recv(1, owner).message.payload == b"hello"
    copy = mbx.recv(2, tap)
    assert (copy.message.payload, copy.message.flags) == (b"hello", 0)
    assert mbx.recv(2, tap).status is MbxStatus.NO_DATA
    assert mbx.snapshot()["descriptors"][0]["readers"] == [{"pid": 1, "handle": 1, "pending": 0}]


def test_tap_never_stalls_fanout_block(mbx):
    # The prior implementation counted the tap as a reader whose cursor never moved.
    producer, readers = fanout(mbx, FANOUT_BLOCK, capacity=64, readers=(2, 3))
    mbx.open(9, "shared:bus", MbxMode.TAP)
    for i in range(20):
        assert mbx.send(1, producer, b"12345678").status is OK, i
        for pid, h in readers.items():
            mbx.recv(pid, h)


def test_tap_never_stalls_a_queue_and_drops_its_own_oldest(mbx, events):
    mbx.bind(0, "app:q", 32)
    h = mbx.open(1, "app:q").handle
    tap = mbx.open(2, "app:q").handle
    assert mbx.tap(2, tap) is OK and mbx.tap(2, tap) is OK            # idempotent
    for i in range(5):
        assert mbx.send(1, h, b"%08d" % i).status is OK
        mbx.recv(1, h)
    copies = [mbx.recv(2, tap).message for _ in range(2)]
    assert [c.payload for c in copies] == [b"00000003", b"00000004"]
    assert [c.flags for c in copies] == [MbxFlag.OVERRUN, 0]
    overruns = events.of("mailbox_overrun")
    assert {d["reason"] for _, d in overruns} == {"tap_drop"} and overruns[0][0] == 2
    assert overruns[0][1]["handle"] == tap


def test_tap_waiter_is_woken_and_queue_waiter_too(mbx):
    h = mbx.open(1, "app:q").handle
    tap = mbx.open(2, "app:q", MbxMode.TAP).handle
    mbx.add_waiter(2, tap)
    mbx.add_waiter(1, h)
    wakes = mbx.send(3, mbx.open(3, "app:q").handle, b"x").wakes
    assert sorted(w.pid for w in wakes) == [1, 2]


def test_tap_off_returns_to_normal_reading(mbx):
    h = mbx.open(1, "app:q").handle
    tap = mbx.open(2, "app:q", MbxMode.TAP).handle
    mbx.send(1, h, b"x")
    assert mbx.tap(2, tap, enable=False) is OK
    assert mbx.recv(2, tap).message.payload == b"x"                    # now competes for the queue
    assert mbx.recv(1, h).status is MbxStatus.NO_DATA


def test_peek_on_tap_reports_its_buffer(mbx):
    h = mbx.open(1, "app:q").handle
    tap = mbx.open(2, "app:q", MbxMode.TAP).handle
    mbx.send(1, h, b"abcd")
    mbx.recv(1, h)
    peek = mbx.peek(2, tap)
    assert (peek.depth, peek.bytes_used, peek.next_length) == (1, 4 + HDR, 4)
