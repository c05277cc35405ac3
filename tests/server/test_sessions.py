"""Sessions, PID locks, observers, expiry and disconnects."""
from __future__ import annotations

import threading
import time

import pytest
from serverkit import LOOP, load, state, wait_for

from hsx.client import Client, ProtocolError


def test_open_negotiates_and_hides_other_ids(connect):
    a, b = connect(), connect()
    session = a.open_session("tool-a", features=["events", "memory", "warp"], max_events=1,
                             heartbeat_s=0.1)
    assert session["features"] == ["events", "memory"]
    assert "unsupported_feature:warp" in session["warnings"]
    assert session["max_events"] == 2 and "max_events_clamped:2" in session["warnings"]
    assert session["heartbeat_s"] == 1.0
    b.open_session("tool-b")
    rows = a.request("session.list")["sessions"]
    mine = [r for r in rows if r.get("id") == session["id"]]
    assert len(rows) == 2 and len(mine) == 1
    assert all("id" not in r for r in rows if r["handle"] != session["handle"])


def test_two_clients_race_for_one_pid(server, connect):
    setup = connect()
    pid = load(setup, LOOP, "loop")
    clients = [connect() for _ in range(8)]
    results: list[str] = []
    barrier = threading.Barrier(len(clients))

    def race(client: Client) -> None:
        barrier.wait()
        try:
            client.open_session("racer", pid_lock=pid)
            results.append("won")
        except ProtocolError as error:
            results.append(error.code)

    threads = [threading.Thread(target=race, args=(c,)) for c in clients]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results.count("won") == 1
    assert results.count(f"pid_locked:{pid}") == len(clients) - 1


def test_owner_controls_others_are_refused(connect):
    owner, other = connect(), connect()
    pid = load(owner, LOOP, "loop")
    owner.open_session("debugger", pid_lock=pid)
    assert owner.request("pause", pid=pid)["task"]["state"] == "paused"
    for cmd, fields in [("resume", {"pid": pid}), ("kill", {"pid": pid}),
                        ("step", {"pid": pid}),
                        ("poke", {"pid": pid, "addr": 0x5000, "data": "00"}),
                        ("sched", {"pid": pid, "quantum": 5}), ("pause", {}), ("resume", {}),
                        ("stdio", {"pid": pid, "data": "x"}), ("send", {"pid": pid, "data": "x"}),
                        ("restart", {"pid": pid}), ("shutdown", {})]:
        with pytest.raises(ProtocolError) as refused:
            other.request(cmd, **fields)
        assert refused.value.code == f"pid_locked:{pid}", cmd
    # reading is fine for anyone
    assert other.request("peek", pid=pid, addr=0x4000, length=4)["length"] == 4
    assert other.request("regs", pid=pid)["registers"]["pid"] == pid
    # a global step would run the owner's task only while it is ready
    owner.request("resume", pid=pid)
    with pytest.raises(ProtocolError) as global_step:
        other.request("step", count=10)
    assert global_step.value.code == f"pid_locked:{pid}"
    assert owner.request("step", pid=pid, count=2)["result"]["executed"] == 2


@pytest.mark.profile("full")          # observer sessions
def test_observer_can_read_but_not_change(connect):
    setup, watcher = connect(), connect()
    pid = load(setup, LOOP, "loop")
    watcher.open_session("viewer", observer=True)
    assert watcher.request("ps")["tasks"]["tasks"][0]["pid"] == pid
    assert watcher.request("regs", pid=pid)["registers"]["pid"] == pid
    watcher.subscribe(["task_state"])
    for cmd, fields in [("pause", {"pid": pid}), ("load", {"path": "/x.hxe"}),
                        ("clock.stop", {}), ("step", {"count": 1}), ("kill", {"pid": pid}),
                        ("send", {"target": "app:x", "data": "1"})]:
        with pytest.raises(ProtocolError) as refused:
            watcher.request(cmd, **fields)
        assert refused.value.code == "read_only", cmd
    with pytest.raises(ProtocolError) as no_lock:
        watcher.request("session.lock", pid=pid)
    assert no_lock.value.code == "read_only"
    tap = watcher.request("mailbox.open", target=f"svc:stdio.out@{pid}", tap=True)
    assert tap["tap"] is True


def test_lock_and_unlock_later(connect):
    owner, other = connect(), connect()
    pid = load(owner, LOOP, "loop")
    owner.open_session("late")
    owner.request("session.lock", pid=pid)
    with pytest.raises(ProtocolError):
        other.request("pause", pid=pid)
    owner.request("session.unlock", pid=pid)
    assert other.request("pause", pid=pid)["task"]["state"] == "paused"


def test_unknown_session_is_refused(client):
    with pytest.raises(ProtocolError) as stale:
        client.request("ps", session="not-a-session")
    assert stale.value.code == "session_required"
    with pytest.raises(ProtocolError) as needed:
        client.request("session.keepalive")
    assert needed.value.code == "session_required"


def test_close_releases_locks(connect):
    owner, other = connect(), connect()
    pid = load(owner, LOOP, "loop")
    owner.open_session("short", pid_lock=pid)
    owner.close_session()
    assert other.request("pause", pid=pid)["task"]["state"] == "paused"


def test_expiry_releases_locks(server, connect):
    owner, other = connect(), connect()
    pid = load(owner, LOOP, "loop")
    owner.open_session("sleepy", pid_lock=pid, heartbeat_s=1)
    with pytest.raises(ProtocolError):
        other.request("pause", pid=pid)
    wait_for(lambda: len(server.server.sessions) == 0, timeout=4)
    assert other.request("pause", pid=pid)["task"]["state"] == "paused"
    logs = other.request("dmesg")["logs"]
    assert any("expired" in e["message"] for e in logs)


def test_keepalive_keeps_a_session(server, connect):
    owner = connect()
    owner.open_session("awake", heartbeat_s=1)
    for _ in range(8):                      # 2 s of keepalives every 0.25 s
        owner.request("session.keepalive")
        time.sleep(0.25)
    assert len(server.server.sessions) == 1


def test_disconnect_releases_locks(server, connect):
    owner, other = connect(), connect()
    pid = load(owner, LOOP, "loop")
    owner.open_session("crashy", pid_lock=pid)
    owner.close()
    wait_for(lambda: len(server.server.sessions) == 0)
    assert other.request("pause", pid=pid)["task"]["state"] == "paused"


def test_session_works_across_connections(connect):
    """A session opened on one connection can be used from another (events on one,
    requests on the other, as legacy clients do)."""
    home, second = connect(), connect()
    pid = load(home, LOOP, "loop")
    session = home.open_session("split", pid_lock=pid)
    second.session_id = session["id"]
    assert second.request("pause", pid=pid)["task"]["state"] == "paused"
    assert state(home, pid) == "paused"
