"""Descriptors, handles, limits, access rules, per-task mailboxes and release."""
import pytest

from hsx.kernel.constants import MbxFlag, MbxMode, MbxNamespace, MbxStatus
from hsx.kernel.mailbox import MailboxError, MailboxManager, StdioHandles
from hsx.kernel.profiles import get_profile

OK = MbxStatus.OK


def targets(mbx):
    return {d["target"] for d in mbx.snapshot()["descriptors"]}


# -- bind and open -----------------------------------------------------------------------

def test_bind_twice_gives_the_same_descriptor(mbx):
    first, second = mbx.bind(1, "app:demo", 32), mbx.bind(2, "app:demo")
    assert first.status is OK and second.descriptor_id == first.descriptor_id
    [d] = mbx.snapshot()["descriptors"]
    assert (d["name"], d["namespace"], d["owner_pid"], d["capacity"]) == ("demo", 2, None, 32)


def test_bind_defaults(make):
    mbx = make(default_capacity=128)
    mbx.bind(1, "svc:x")
    [d] = mbx.snapshot()["descriptors"]
    assert d["capacity"] == 128 and d["mode_mask"] == MbxMode.RDWR and d["owner_pid"] == 1


@pytest.mark.parametrize("mode, stored", [
    (MbxMode.FANOUT, MbxMode.RDWR | MbxMode.FANOUT),
    # FANOUT_DROP alone used to mean a plain queue (stdlib svc:log mode 0x13): it means fan-out.
    (0x13, 0x13 | MbxMode.FANOUT),
    (MbxMode.RDWR | MbxMode.FANOUT_BLOCK, MbxMode.RDWR | MbxMode.FANOUT | MbxMode.FANOUT_BLOCK),
    (MbxMode.RDONLY | MbxMode.TAP, MbxMode.RDONLY | MbxMode.TAP),
])
def test_bind_normalises_modes(mbx, mode, stored):
    mbx.bind(1, "app:m", 0, mode)
    assert mbx.snapshot()["descriptors"][0]["mode_mask"] == stored


@pytest.mark.parametrize("capacity, mode", [
    (7, 0), (0x10000, 0), (0, 0x40), (0, MbxMode.FANOUT_DROP | MbxMode.FANOUT_BLOCK),
])
def test_bind_rejects_bad_arguments(mbx, events, capacity, mode):
    assert mbx.bind(1, "app:m", capacity, mode).status is MbxStatus.INVALID_ARGUMENT
    assert targets(mbx) == set()
    [(pid, data)] = events.of("mailbox_error")
    assert pid == 1 and data["fn"] == 1 and data["status"] == MbxStatus.INVALID_ARGUMENT


def test_bad_target_is_invalid_argument_with_message(mbx, events):
    assert mbx.open(1, "hal:uart").status is MbxStatus.INVALID_ARGUMENT
    assert mbx.bind(1, "").status is MbxStatus.INVALID_ARGUMENT
    assert "unknown mailbox namespace" in events.of("mailbox_error")[0][1]["error"]


def test_open_creates_and_shares(mbx):
    assert mbx.open(1, "app:demo").handle == 1
    assert mbx.open(2, "app:demo").handle == 1
    assert mbx.open(1, "svc:stdio.out").handle == 2
    assert len(targets(mbx)) == 2
    ping = mbx.send(2, 1, b"ping")
    assert ping.status is OK and mbx.recv(1, 1).message.payload == b"ping"


def test_owner_suffix_makes_distinct_descriptors(mbx):
    mbx.open(0, "svc:stdio.out")
    mbx.open(0, "svc:stdio.out@10")
    assert targets(mbx) == {"svc:stdio.out@0", "svc:stdio.out@10"}


def test_handle_numbers_are_per_task_and_not_reused(mbx):
    h1 = mbx.open(1, "app:a").handle
    assert mbx.close(1, h1) is OK
    assert mbx.open(1, "app:a").handle == h1 + 1
    assert mbx.open(2, "app:a").handle == 1


def test_closed_or_unknown_handles_are_invalid(mbx):
    h = mbx.open(1, "app:a").handle
    mbx.close(1, h)
    assert mbx.close(1, h) is MbxStatus.INVALID_HANDLE
    assert mbx.close(1, 99) is MbxStatus.INVALID_HANDLE
    assert mbx.send(1, h, b"x").status is MbxStatus.INVALID_HANDLE
    assert mbx.recv(1, h).status is MbxStatus.INVALID_HANDLE
    assert mbx.peek(1, h).status is MbxStatus.INVALID_HANDLE
    assert mbx.tap(1, h) is MbxStatus.INVALID_HANDLE
    assert mbx.open(2, "app:b").handle == 1
    assert mbx.recv(1, 1).status is MbxStatus.INVALID_HANDLE   # another task's handle number


# -- limits ------------------------------------------------------------------------------

def test_descriptor_pool_limit(make, events):
    mbx = make(max_descriptors=4)
    mbx.create_task_mailboxes(1)
    assert mbx.bind(1, "app:overflow").status is MbxStatus.NO_DESCRIPTOR
    assert mbx.open(1, "app:overflow").status is MbxStatus.NO_DESCRIPTOR
    [(pid, data), _] = events.of("mailbox_exhausted")
    assert pid == 1 and data["reason"] == "descriptor_pool_full" and data["max_descriptors"] == 4
    assert data["target"] == "app:overflow"
    assert mbx.snapshot()["stats"]["descriptor_pool_exhausted"]
    # existing mailboxes keep working
    assert mbx.write_stdio(1, 1, b"still ok").status is OK


def test_handle_limit_and_recovery(make, events):
    mbx = make(max_handles_per_task=4)
    mbx.create_task_mailboxes(1)                        # 3 handles
    extra = mbx.open(1, "app:extra").handle
    assert mbx.open(1, "app:overflow").status is MbxStatus.NO_DESCRIPTOR
    [(pid, data)] = events.of("mailbox_exhausted")
    assert data == {"reason": "handle_limit", "handle_limit": 4, "handles": 4} and pid == 1
    assert "app:overflow" not in targets(mbx)           # nothing half-created
    assert mbx.close(1, extra) is OK
    assert mbx.open(1, "app:overflow").status is OK
    assert mbx.open(2, "app:overflow").handle == 1      # the limit is per task


def test_message_size_limit(make):
    mbx = make(max_message_size=16)
    h = mbx.open(1, "app:big").handle
    assert mbx.send(1, h, b"x" * 16).status is OK
    assert mbx.send(1, h, b"x" * 17).status is MbxStatus.MSG_TOO_LARGE


def test_from_profile():
    profile = get_profile("minimal")
    mbx = MailboxManager.from_profile(profile)
    assert mbx.max_descriptors == profile.max_descriptors
    assert mbx.max_handles_per_task == profile.max_handles_per_task
    assert mbx.default_capacity == profile.mailbox_capacity
    assert mbx.max_message_size == profile.max_message_size


@pytest.mark.parametrize("kwargs", [
    {"max_descriptors": 0}, {"max_handles_per_task": 0}, {"default_capacity": 4},
    {"max_message_size": -1},
])
def test_constructor_rejects_nonsense_limits(kwargs):
    with pytest.raises(ValueError):
        MailboxManager(**kwargs)


# -- access ------------------------------------------------------------------------------

def test_open_flags_restrict_the_handle(mbx):
    reader = mbx.open(1, "app:a", MbxMode.RDONLY).handle
    writer = mbx.open(1, "app:a", MbxMode.WRONLY).handle
    assert mbx.send(1, reader, b"x").status is MbxStatus.ACCESS_DENIED
    assert mbx.recv(1, writer).status is MbxStatus.ACCESS_DENIED
    assert mbx.tap(1, writer) is MbxStatus.ACCESS_DENIED
    assert mbx.send(1, writer, b"x").status is OK
    assert mbx.recv(1, reader).message.payload == b"x"


def test_unknown_open_flag_bits_are_ignored(mbx):
    h = mbx.open(1, "app:a", 0xFF00 | MbxMode.FANOUT).handle
    assert mbx.send(1, h, b"x").status is OK


def test_descriptor_access_bits_bind_other_tasks_not_the_owner(mbx):
    mbx.bind(1, "svc:telemetry", 0, MbxMode.RDONLY)
    own = mbx.open(1, "svc:telemetry").handle
    other = mbx.open(2, "svc:telemetry@1").handle
    assert mbx.send(1, own, b"t").status is OK
    assert mbx.send(2, other, b"spoof").status is MbxStatus.ACCESS_DENIED
    assert mbx.recv(2, other).message.payload == b"t"
    assert mbx.open(2, "svc:telemetry@1", MbxMode.WRONLY).status is MbxStatus.ACCESS_DENIED


def test_inbox_style_write_only_descriptor(mbx):
    mbx.bind(1, "svc:inbox", 0, MbxMode.WRONLY)
    assert mbx.open(2, "svc:inbox@1", MbxMode.TAP).status is MbxStatus.ACCESS_DENIED
    sender = mbx.open(2, "svc:inbox@1").handle
    assert mbx.recv(2, sender).status is MbxStatus.ACCESS_DENIED
    assert mbx.send(2, sender, b"hi").status is OK


def test_refused_tap_open_does_not_leave_a_descriptor(mbx):
    assert mbx.open(1, "app:t", MbxMode.WRONLY | MbxMode.TAP).status is MbxStatus.ACCESS_DENIED
    assert targets(mbx) == set()


# -- per-task mailboxes and stdio ----------------------------------------------------------

def test_create_task_mailboxes(mbx):
    stdio = mbx.create_task_mailboxes(7)
    assert stdio == StdioHandles(1, 2, 3)
    assert targets(mbx) == {"svc:stdio.in@7", "svc:stdio.out@7", "svc:stdio.err@7", "pid:7"}
    assert [mbx.stdio_handle(7, fd) for fd in (0, 1, 2, 3)] == [1, 2, 3, None]
    assert mbx.stdio_handle(8, 0) is None
    pid_box = next(d for d in mbx.snapshot()["descriptors"] if d["target"] == "pid:7")
    assert (pid_box["name"], pid_box["namespace"], pid_box["owner_pid"]) == ("pid:7", MbxNamespace.PID, 7)


def test_create_task_mailboxes_twice_is_a_kernel_error(mbx):
    mbx.create_task_mailboxes(7)
    with pytest.raises(MailboxError, match="already"):
        mbx.create_task_mailboxes(7)


def test_create_task_mailboxes_failure_leaves_nothing(make):
    mbx = make(max_descriptors=5)
    mbx.bind(0, "svc:stdio.out@7")                      # pre-existing, must survive
    mbx.bind(0, "app:a")
    mbx.bind(0, "app:b")
    with pytest.raises(MailboxError) as caught:
        mbx.create_task_mailboxes(7)
    assert caught.value.status is MbxStatus.NO_DESCRIPTOR
    assert targets(mbx) == {"svc:stdio.out@7", "app:a", "app:b"}
    assert mbx.snapshot()["stats"]["handles_total"] == 0
    assert mbx.stdio_handle(7, 1) is None


def test_stdio_writes_are_flagged_and_readable_by_the_host(mbx):
    mbx.create_task_mailboxes(5)
    assert mbx.write_stdio(5, 1, b"out").length == 3
    assert mbx.write_stdio(5, 2, b"err").status is OK
    assert mbx.write_stdio(5, 1, b"").status is OK             # zero-length write sends nothing
    out = mbx.open(0, "svc:stdio.out@5").handle
    err = mbx.open(0, "svc:stdio.err@5").handle
    got = mbx.recv(0, out).message
    assert (got.payload, got.flags, got.src_pid) == (b"out", MbxFlag.STDOUT, 5)
    assert mbx.recv(0, out).status is MbxStatus.NO_DATA
    assert mbx.recv(0, err).message.flags == MbxFlag.STDERR


def test_stdin_is_fed_by_the_host(mbx):
    stdio = mbx.create_task_mailboxes(5)
    host = mbx.open(0, "svc:stdio.in@5").handle
    mbx.send(0, host, b"line\n")
    got = mbx.recv(5, stdio.stdin).message
    assert (got.payload, got.src_pid) == (b"line\n", 0)


def test_stdio_fd_mapping_errors(mbx, events):
    mbx.create_task_mailboxes(5)
    assert mbx.write_stdio(5, 0, b"x").status is MbxStatus.INVALID_HANDLE
    assert mbx.write_stdio(6, 1, b"x").status is MbxStatus.INVALID_HANDLE
    assert mbx.send(5, mbx.stdio_handle(5, 0), b"x").status is MbxStatus.ACCESS_DENIED
    assert mbx.recv(5, mbx.stdio_handle(5, 1)).status is MbxStatus.ACCESS_DENIED
    assert len(events.of("mailbox_error")) == 4


# -- release ------------------------------------------------------------------------------

def test_release_task_frees_everything_and_reload_works(make):
    mbx = make(max_descriptors=8, max_handles_per_task=8)
    empty = mbx.snapshot()
    for _ in range(3):                                  # load, kill, reload ... never leaks
        pid = 10
        stdio = mbx.create_task_mailboxes(pid)
        mbx.bind(pid, "app:procon", 96)
        consumer = mbx.open(pid, "app:procon").handle
        tap = mbx.open(pid, "svc:stdio.out", MbxMode.TAP).handle
        fan = mbx.open(pid, "shared:bus").handle
        mbx.bind(0, "shared:bus", 0, MbxMode.FANOUT)
        mbx.write_stdio(pid, 1, b"hello")
        assert mbx.recv(pid, consumer).status is MbxStatus.NO_DATA
        mbx.add_waiter(pid, consumer, deadline=1.0)
        assert mbx.recv(pid, tap).message.payload == b"hello"
        assert stdio.stdin == 1
        assert mbx.release_task(pid) == []
        snap = mbx.snapshot()
        # only the host-bound shared:bus remains, with no handles, waiters, taps or cursors
        assert [d["target"] for d in snap["descriptors"]] == ["shared:bus"]
        assert snap["descriptors"][0]["readers"] == [] and snap["descriptors"][0]["handles"] == 0
        assert snap["stats"]["handles_total"] == 0 and snap["stats"]["waiter_count"] == 0
        assert snap["stats"]["tap_count"] == 0
        assert mbx.expire_waiter(pid) is None
        assert fan and mbx.release_task(0) == []
        assert mbx.snapshot()["descriptors"] == empty["descriptors"]


def test_release_wakes_other_tasks_blocked_on_freed_mailboxes(mbx, events):
    mbx.create_task_mailboxes(3)
    h = mbx.open(4, "pid:3").handle
    mbx.add_waiter(4, h)
    [wake] = mbx.release_task(3)
    assert (wake.pid, wake.handle, wake.result.status) == (4, h, MbxStatus.INVALID_HANDLE)
    assert mbx.send(4, h, b"x").status is MbxStatus.INVALID_HANDLE      # the handle went too
    assert mbx.snapshot()["stats"]["handles_per_pid"] == {}
    assert {d["reason"] for _, d in events.of("mailbox_freed")} == {"owner_released"}


def test_release_keeps_global_mailboxes_with_queued_messages(mbx):
    h = mbx.open(1, "app:procon").handle
    mbx.send(1, h, b"for whoever comes next")
    mbx.release_task(1)
    reader = mbx.open(2, "app:procon").handle
    assert mbx.recv(2, reader).message.payload == b"for whoever comes next"
    mbx.close(2, reader)
    assert targets(mbx) == set()                        # drained and unreferenced: freed


def test_close_frees_unbound_unused_descriptor(mbx, events):
    h = mbx.open(1, "svc:scratch").handle
    mbx.close(1, h)
    assert targets(mbx) == set()
    [(pid, data)] = events.of("mailbox_freed")
    assert data["reason"] == "unused" and data["target"] == "svc:scratch@1"
