"""Snapshot shape, statistics, events and the ABI constants tools and guests rely on."""
import json

from hsx.kernel import constants as C
from hsx.kernel.constants import MbxFlag, MbxFn, MbxMode, MbxNamespace, MbxStatus, MbxTimeout
from hsx.kernel.mailbox import MailboxEvent, RecvInfo

DESCRIPTOR_KEYS = {
    "descriptor_id", "target", "namespace", "name", "owner_pid", "mode_mask", "capacity",
    "bytes_used", "queue_depth", "head_seq", "next_seq", "handles", "readers", "waiters", "taps",
}
STATS_KEYS = {
    "max_descriptors", "active_descriptors", "free_descriptors", "descriptor_pool_exhausted",
    "total_capacity", "bytes_used", "bytes_available", "queue_depth", "fanout_descriptors",
    "handles_total", "handles_per_pid", "handle_limit_per_pid", "tap_count", "tap_queue_depth",
    "waiter_count", "messages_sent", "messages_received", "wakes", "timeouts", "overruns", "errors",
}


def test_empty_snapshot(make):
    snap = make(max_descriptors=32).snapshot()
    assert snap["descriptors"] == []
    stats = snap["stats"]
    assert set(stats) == STATS_KEYS
    assert (stats["max_descriptors"], stats["active_descriptors"], stats["free_descriptors"]) == (32, 0, 32)
    assert stats["handles_per_pid"] == {} and stats["tap_count"] == 0


def test_snapshot_shape_and_json(mbx):
    mbx.create_task_mailboxes(1)
    mbx.bind(0, "shared:bus", 48, MbxMode.FANOUT)
    producer = mbx.open(1, "shared:bus").handle
    reader = mbx.open(2, "shared:bus").handle
    mbx.open(3, "shared:bus", MbxMode.TAP)
    mbx.send(1, producer, b"abc")
    waiter = mbx.open(4, "app:w").handle
    mbx.add_waiter(4, waiter, deadline=2.5)

    snap = mbx.snapshot()
    assert json.loads(json.dumps(snap)) == snap
    by_target = {d["target"]: d for d in snap["descriptors"]}
    assert list(by_target) == ["svc:stdio.in@1", "svc:stdio.out@1", "svc:stdio.err@1", "pid:1",
                               "shared:bus", "app:w"]
    bus = by_target["shared:bus"]
    assert set(bus) == DESCRIPTOR_KEYS
    assert bus == {
        "descriptor_id": 5, "target": "shared:bus", "namespace": MbxNamespace.SHARED, "name": "bus",
        "owner_pid": None, "mode_mask": MbxMode.RDWR | MbxMode.FANOUT, "capacity": 48,
        "bytes_used": 3 + C.MESSAGE_HEADER_BYTES, "queue_depth": 1, "head_seq": 0, "next_seq": 1,
        "handles": 3, "waiters": [],
        "readers": [{"pid": 1, "handle": producer, "pending": 0},     # its own message is seen
                    {"pid": 2, "handle": reader, "pending": 1}],
        "taps": [{"pid": 3, "handle": 1, "depth": 1}],
    }
    assert by_target["app:w"]["waiters"] == [4]
    stats = snap["stats"]
    assert stats["active_descriptors"] == 6 and stats["fanout_descriptors"] == 1
    assert stats["handles_per_pid"] == {"1": 4, "2": 1, "3": 1, "4": 1}
    assert stats["handles_total"] == 7 and stats["tap_count"] == 1 and stats["tap_queue_depth"] == 1
    assert stats["waiter_count"] == 1 and stats["messages_sent"] == 1
    assert stats["bytes_used"] == 11 and stats["total_capacity"] == 5 * 64 + 48


def test_event_catalogue_and_fields(mbx, events):
    h = mbx.open(1, "app:e").handle
    mbx.send(1, h, b"hi", flags=1, channel=7)
    mbx.recv(1, h)
    mbx.add_waiter(1, h, deadline=None, timeout=0xFFFF)
    mbx.send(2, mbx.open(2, "app:e").handle, b"yo")
    mbx.add_waiter(1, h, deadline=1.0, timeout=10)
    mbx.expire_waiter(1)
    mbx.close(1, 42)

    assert set(events.types()) <= {e.value for e in MailboxEvent}
    send_pid, send = events.of("mailbox_send")[0]
    assert send_pid == 1 and send == {"descriptor": 1, "handle": h, "length": 2, "flags": 1,
                                      "channel": 7, "src_pid": 1, "seq": 0}
    assert events.of("mailbox_recv")[0] == (1, {"descriptor": 1, "handle": h, "tap": False,
                                                "length": 2, "flags": 1, "channel": 7,
                                                "src_pid": 1, "seq": 0})
    assert events.of("mailbox_wake")[0] == (1, {"descriptor": 1, "handle": h, "status": 0,
                                                "length": 2, "flags": 0, "channel": 0, "src_pid": 2,
                                                "seq": 1})
    assert events.of("mailbox_timeout")[0][1]["status"] == MbxStatus.TIMEOUT
    assert events.of("mailbox_error") == [(1, {"fn": MbxFn.CLOSE, "status": MbxStatus.INVALID_HANDLE,
                                               "error": "task 1 has no mailbox handle 42"})]
    created = events.of("mailbox_created")[0]
    assert created == (1, {"descriptor": 1, "target": "app:e", "namespace": 2, "name": "e",
                           "owner": None, "capacity": 64, "mode": 3})
    # every payload is JSON-ready with plain values
    assert json.loads(json.dumps([d for _, _, d in events.log])) == [d for _, _, d in events.log]


def test_no_event_for_an_empty_poll(mbx, events):
    h = mbx.open(1, "app:poll_demo").handle
    events.log.clear()
    assert mbx.recv(1, h).status is MbxStatus.NO_DATA
    assert events.log == []


def test_no_emit_hook_is_fine():
    from hsx.kernel.mailbox import MailboxManager
    mbx = MailboxManager()
    h = mbx.open(1, "app:x").handle
    assert mbx.send(1, h, b"x").status is MbxStatus.OK


def test_recv_info_layout():
    info = RecvInfo(MbxStatus.OK, 5, MbxFlag.STDOUT, 3, 2)
    data = info.pack()
    assert len(data) == C.RECV_INFO_SIZE == 20
    assert data == bytes.fromhex("00000000" "05000000" "01000000" "03000000" "02000000")
    assert RecvInfo.unpack(data) == info
    assert RecvInfo(MbxStatus.TIMEOUT).pack() == b"\x07" + bytes(19)
    assert RecvInfo.unpack(RecvInfo(-3, -1).pack()) == RecvInfo(-3, -1)    # signed fields


def test_abi_numbers():
    assert C.MODULE_ID == 5 and C.MAX_NAME_BYTES == 32 and C.DEFAULT_CAPACITY == 64
    assert [int(s) for s in MbxStatus] == [0, 1, 2, 3, 4, 5, 7, 8, 9, 0xFF]
    assert (MbxMode.RDONLY, MbxMode.WRONLY, MbxMode.RDWR, MbxMode.TAP) == (1, 2, 3, 4)
    assert (MbxMode.FANOUT, MbxMode.FANOUT_DROP, MbxMode.FANOUT_BLOCK) == (8, 0x10, 0x20)
    assert (MbxFlag.STDOUT, MbxFlag.STDERR, MbxFlag.OOB, MbxFlag.OVERRUN) == (1, 2, 4, 8)
    assert [int(n) for n in MbxNamespace] == [0, 1, 2, 3]
    assert [n.prefix for n in MbxNamespace] == ["pid:", "svc:", "app:", "shared:"]
    assert (MbxTimeout.POLL, MbxTimeout.INFINITE) == (0, 0xFFFF)
    assert [int(f) for f in MbxFn] == list(range(8))        # 7 = SEND_WAIT (HSX extension)
    assert (C.STDIO_IN, C.STDIO_OUT, C.STDIO_ERR) == ("svc:stdio.in", "svc:stdio.out", "svc:stdio.err")
