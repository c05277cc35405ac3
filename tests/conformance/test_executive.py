"""What a client asks of the executive itself: its variant and features (`info`), the
clock, the log (`dmesg`), PID locks taken and given back in a session, the host's own
mailboxes, the trace ring's status and size, and `jump` -- the same on every executive
and variant (the C executive's were missing: "the board has no command ...")."""
from __future__ import annotations

import pytest
from executives import image, wait_for
from mvasmkit import FAULTER, HELLO
from programs import CONSUMER, LOOP

from hsx.client import ProtocolError
from hsx.kernel.profiles import FULL_FEATURES, PROFILES, variant_offering

# Reverse execution and the timeline are hsx execd's alone, over TCP: a board has neither,
# and the framed link carries neither (docs/variants.md).
NOT_ON_THE_LINK = {"reverse", "timeline"}


def row(client, pid: int) -> dict:
    return client.request("ps", pid=pid)["tasks"]["tasks"][0]


def test_info_names_the_variant_what_it_offers_and_which_variant_has_the_rest(executive):
    info = executive.connect().request("info")["info"]
    expected = PROFILES[executive.variant].features
    if executive.kind != "python":
        expected = expected - NOT_ON_THE_LINK
    assert info["variant"] == executive.variant
    assert set(info["features"]) == expected
    lacking = FULL_FEATURES - expected - (NOT_ON_THE_LINK if executive.kind != "python"
                                          else set())
    assert info["variant_required"] == {f: variant_offering(f) for f in lacking}


def test_the_clock_stops_and_starts_the_tasks(executive):
    client = executive.connect()
    assert client.request("clock.status")["clock"]["running"] is True
    pid = client.request("load", image=image(LOOP, "loop"))["pid"]
    wait_for(lambda: row(client, pid)["instructions"] > 0)
    stopped = client.request("clock.stop")["clock"]
    assert (stopped["state"], stopped["running"]) == ("stopped", False)
    before = row(client, pid)["instructions"]
    client.request("step", pid=pid, count=3)         # a stopped clock still steps a task
    assert row(client, pid)["instructions"] == before + 3
    client.request("resume", pid=pid)
    assert row(client, pid)["instructions"] == before + 3        # nothing runs it
    assert client.request("clock.start")["clock"]["running"] is True
    wait_for(lambda: row(client, pid)["instructions"] > before + 3)
    assert client.request("clock.rate", rate=1000)["clock"]["rate_hz"] == 1000
    assert client.request("clock.rate", rate=0)["clock"]["rate_hz"] == 0


def test_the_log_says_which_tasks_ended_and_faulted(executive):
    client = executive.connect()
    faulted = client.request("load", image=image(FAULTER, "faulter"))["pid"]
    returned = client.request("load", image=image(HELLO, "hello"))["pid"]
    for pid in (faulted, returned):
        wait_for(lambda pid=pid: row(client, pid)["state"] in ("faulted", "returned"))

    def messages(**fields):
        return [entry["message"] for entry in client.request("dmesg", **fields)["logs"]]
    wait_for(lambda: f"task {returned} returned (exit status 3)" in messages())
    fault = [m for m in messages(pid=faulted) if m.startswith(f"task {faulted} faulted: ")]
    assert fault and fault == messages(pid=faulted, level="error")
    assert messages(limit=1) == messages()[-1:]


def test_a_session_locks_and_unlocks_a_task(executive):
    """One client (a board serves one host): its requests outside the session
    (`session: null`) are another client's."""
    client = executive.connect()
    pid = client.request("load", image=image(LOOP, "loop"), paused=True)["pid"]
    handle = client.open_session("locker")["handle"]
    assert client.request("session.lock", pid=pid)["session"]["pid_lock"] == [pid]
    assert row(client, pid)["locked_by"] == handle
    with pytest.raises(ProtocolError) as locked:
        client.request("kill", pid=pid, session=None)
    assert locked.value.code == f"pid_locked:{pid}"
    client.request("step", pid=pid)                  # the owner still may
    assert client.request("session.unlock", pid=pid)["session"]["pid_lock"] == []
    assert row(client, pid)["locked_by"] is None
    assert client.request("kill", pid=pid, session=None)["task"]["state"] == "killed"


def test_the_host_opens_sends_to_and_reads_a_mailbox(executive):
    client = executive.connect()
    pid = client.request("load", image=image(CONSUMER, "consumer"), paused=True)["pid"]
    targets = [d["target"] for d in client.request("mailbox.snapshot")["descriptors"]]
    assert {f"svc:stdio.in@{pid}", f"svc:stdio.out@{pid}"} <= set(targets)
    handle = client.request("mailbox.open", target="app:notes")["handle"]
    sent = client.request("send", target="app:notes", data="hello there", channel=2)
    assert (sent["length"], sent["mbx_status"]) == (11, 0)
    got = client.request("listen", handle=handle)["messages"]
    assert [(m["text"], m["data_hex"], m["channel"], m["src_pid"]) for m in got] == [
        ("hello there", b"hello there".hex(), 2, 0)]
    assert client.request("listen", handle=handle)["messages"] == []
    client.request("mailbox.close", handle=handle)
    with pytest.raises(ProtocolError) as closed:
        client.request("listen", handle=handle)
    assert closed.value.code == "unknown_handle"


def test_the_trace_ring_has_the_size_asked_for_up_to_the_variants(executive):
    client = executive.connect()
    pid = client.request("load", image=image(LOOP, "loop"), paused=True)["pid"]
    if not executive.offers("trace"):
        with pytest.raises(ProtocolError) as refused:
            client.request("trace.status", pid=pid)
        assert refused.value.variant_required == "development"
        return
    assert client.request("trace.status", pid=pid)["trace"]["enabled"] is False
    assert client.request("trace.on", pid=pid, size=3)["trace"]["capacity"] == 3
    client.request("step", pid=pid, count=5)
    status = client.request("trace.status", pid=pid)["trace"]
    assert (status["enabled"], status["capacity"], status["count"]) == (True, 3, 3)
    records = client.request("trace.records", pid=pid)["trace"]["records"]
    assert [r["pc"] for r in records] == [12, 16, 20]           # the newest three
    huge = client.request("trace.on", pid=pid, size=1 << 20)["trace"]
    assert huge["warnings"] == [f"size_clamped:{huge['capacity']}"]
    assert huge["capacity"] < 1 << 20


def test_jump_moves_a_paused_task_within_its_code(executive):
    client = executive.connect()
    pid = client.request("load", image=image(LOOP, "loop"), paused=True)["pid"]
    if not executive.offers("debug"):
        with pytest.raises(ProtocolError) as refused:
            client.request("jump", pid=pid, addr=8)
        assert refused.value.variant_required == "development"
        return
    client.request("step", pid=pid, count=3)
    assert client.request("jump", pid=pid, addr=8)["result"]["pc"] == 8
    assert client.request("regs", pid=pid)["registers"]["pc"] == 8
    client.request("step", pid=pid)
    assert client.request("regs", pid=pid)["registers"]["pc"] == 12
    with pytest.raises(ProtocolError) as unaligned:
        client.request("jump", pid=pid, addr=6)
    assert unaligned.value.code == "bad_address"
    client.request("resume", pid=pid)
    with pytest.raises(ProtocolError) as running:
        client.request("jump", pid=pid, addr=8)
    assert running.value.code == "not_stopped"
