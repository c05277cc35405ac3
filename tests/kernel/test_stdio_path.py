"""A task's writes to fd 1/2 (issue 26, the event path): the executive takes a write
without queueing it when nobody else could see it queued, and what anyone can observe --
the output, the mailbox events, sequence numbers, counters, taps -- is what the queued
path gives."""
from __future__ import annotations

from hsx.kernel.clock import VirtualClock
from hsx.kernel.constants import MbxFlag, MbxMode
from hsx.kernel.executive import Kernel
from hsx.kernel.mailbox.manager import HOST_PID
from hsx.toolchain.build import build_source

SILENT = """
.entry start
start:
    LDI R0, 0
    SVC MOD=1, FN=0
"""


def mailbox_traffic(harness, since: int) -> list[tuple[str, int | None, dict]]:
    return [(e.type, e.pid, e.data) for e in harness.events[since:]
            if e.type in ("mailbox_send", "mailbox_recv")]


def write(harness, task, fd: int, text: bytes) -> list[tuple[str, int | None, dict]]:
    """The mailbox events of one write by `task`."""
    before = len(harness.events)
    harness.kernel.stdio.write(task, fd, text)
    return mailbox_traffic(harness, before)


def without_seq(traffic: list[tuple[str, int | None, dict]]) -> list:
    return [(type_, pid, {k: v for k, v in data.items() if k != "seq"})
            for type_, pid, data in traffic]


def test_a_write_taken_at_once_reports_what_a_queued_one_does(harness):
    """A tap on the task's stdout makes the write go through the queue; both ways give
    the same events (one sequence of numbers), the output, and the tap its copy."""
    kernel = harness.kernel
    task = harness.load(SILENT, "quiet")
    boxes = kernel.mailboxes
    counted = boxes.snapshot()["stats"]
    direct = write(harness, task, 1, b"one\n")
    tap = boxes.open(HOST_PID, f"svc:stdio.out@{task.pid}",
                     int(MbxMode.RDONLY | MbxMode.TAP)).handle
    queued = write(harness, task, 1, b"two\n")
    boxes.close(HOST_PID, tap)
    direct_again = write(harness, task, 1, b"six\n")

    assert [type_ for type_, _, _ in direct] == ["mailbox_send", "mailbox_recv"]
    assert without_seq(direct) == without_seq(queued) == without_seq(direct_again)
    assert [data["seq"] for _, _, data in direct + queued + direct_again] == [0, 0, 1, 1, 2, 2]
    send_pid, send = direct[0][1:]
    assert send_pid == task.pid and send["flags"] == MbxFlag.STDOUT and send["length"] == 4
    assert direct[1][1] == HOST_PID and direct[1][2]["tap"] is False
    assert harness.text(task.pid) == "one\ntwo\nsix\n"
    assert [e.data["text"] for e in harness.of("stdout")] == ["one\n", "two\n", "six\n"]
    stats = boxes.snapshot()["stats"]
    assert stats["messages_sent"] - counted["messages_sent"] == 3
    assert stats["messages_received"] - counted["messages_received"] == 3
    assert stats["queue_depth"] == counted["queue_depth"]


def test_a_tap_sees_only_what_was_written_while_it_was_open(harness):
    task = harness.load(SILENT, "quiet")
    boxes = harness.kernel.mailboxes
    harness.kernel.stdio.write(task, 2, b"before")
    tap = boxes.open(HOST_PID, f"svc:stdio.err@{task.pid}",
                     int(MbxMode.RDONLY | MbxMode.TAP)).handle
    harness.kernel.stdio.write(task, 2, b"while")
    boxes.close(HOST_PID, tap)
    harness.kernel.stdio.write(task, 2, b"after")
    assert [e.data["text"] for e in harness.of("stderr")] == ["before", "while", "after"]


def test_a_task_that_reads_its_own_output_gets_the_write_or_the_executive_does(harness):
    """A second reader of the queue (the task itself, opening its stdout read-write as
    a stdio shim may) competes for each message, as in any queue-mode mailbox: the
    executive, receiving right after the send, takes every write and the output is
    complete either way."""
    task = harness.load(SILENT, "quiet")
    boxes = harness.kernel.mailboxes
    own = boxes.open(task.pid, "svc:stdio.out").handle
    harness.kernel.stdio.write(task, 1, b"shared\n")
    assert harness.text(task.pid) == "shared\n"
    assert boxes.recv(task.pid, own).message is None


def test_mailbox_traffic_events_are_built_only_for_a_listener_and_never_kept(harness):
    """mailbox_send/recv (one per message) are transient: the bus builds them only while
    someone listens to them and keeps none in its history; other events are kept."""
    kernel = harness.kernel
    task = harness.load(SILENT, "quiet")
    kernel.stdio.write(task, 1, b"seen\n")
    assert [e.type for e in harness.of("mailbox_send")] == ["mailbox_send"]
    history = [e.type for e in kernel.events.history]
    assert "mailbox_send" not in history and "mailbox_recv" not in history
    assert "stdout" in history and "mailbox_created" in history


def test_nobody_listening_to_mailbox_traffic_gets_none_built(tmp_path):
    kernel = Kernel(clock=VirtualClock(1_000_000), fs_root=tmp_path)
    task = kernel.load(build_source(SILENT, filename="quiet.mvasm", app_name="quiet"))
    outputs: list = []
    kernel.events.subscribe(outputs.append, {"stdout", "mailbox_created"})
    assert not kernel.events.wants("mailbox_send") and not kernel.events.wants("mailbox_recv")
    kernel.stdio.write(task, 1, b"unseen\n")
    assert [e.type for e in outputs] == ["stdout"]
    kernel.events.subscribe(outputs.append, {"mailbox"})
    assert kernel.events.wants("mailbox_send")
