"""A task's stdio is its own (issue 17, group 6): another task may open it only when a
client that controls the task grants it (`grant.stdio`)."""
from __future__ import annotations

import time

import pytest
from serverkit import CHATTY, load, state, wait_event, wait_for

from hsx.client import Client, ProtocolError
from hsx.server import BackgroundServer, ServerConfig

SPY = """
.data
target: .asciz "svc:stdio.out@{pid}"
.text
.entry start
start:
    LDI32 R1, target
    LDI R2, 5                ; RDONLY | TAP
    SVC MOD=5, FN=0          ; OPEN -> R0 status
    SVC MOD=1, FN=0          ; exit with it
"""
ACCESS_DENIED, OK = 9, 0


def exit_status(client, pid):
    wait_for(lambda: state(client, pid) == "returned")
    return client.request("ps", pid=pid)["tasks"]["tasks"][0]["exit_status"]


def test_a_task_cannot_tap_another_tasks_output_without_a_grant(client):
    victim = load(client, CHATTY, "victim")
    spy = load(client, SPY.format(pid=victim), "spy")
    assert exit_status(client, spy) == ACCESS_DENIED
    granted = load(client, SPY.format(pid=victim), "granted", paused=True)
    reply = client.request("grant.stdio", pid=victim, to=granted)
    assert reply == {**reply, "pid": victim, "granted": [granted]}
    client.request("resume", pid=granted)
    assert exit_status(client, granted) == OK
    with pytest.raises(ProtocolError) as unknown:
        client.request("grant.stdio", pid=victim, to=999)
    assert unknown.value.code == "unknown_pid"
    client.request("kill", pid=victim)


def test_only_a_client_that_controls_the_task_may_grant(connect):
    owner, other = connect(), connect()
    victim = load(owner, CHATTY, "victim")
    owner.open_session("owner", pid_lock=victim)
    reader = load(other, CHATTY, "reader")
    with pytest.raises(ProtocolError) as locked:
        other.request("grant.stdio", pid=victim, to=reader)
    assert locked.value.code == f"pid_locked:{victim}"


def test_output_of_a_locked_task_is_its_sessions(connect):
    owner, other = connect(), connect()
    victim = load(owner, CHATTY, "victim")
    owner.open_session("owner", pid_lock=victim)
    other.request("stdio")                                   # every task's output ...
    for refused in ({"pid": victim}, {"op": "recent", "pid": victim}):
        with pytest.raises(ProtocolError) as locked:
            other.request("stdio", **refused)
        assert locked.value.code == f"pid_locked:{victim}"
    with pytest.raises(ProtocolError) as tap:
        other.request("mailbox.open", target=f"svc:stdio.out@{victim}", tap=True)
    assert tap.value.code == f"pid_locked:{victim}"
    assert owner.request("stdio", pid=victim, recent=True)["recent"][0]["output"]
    assert wait_event(owner, "stdout", text="tick\n")["pid"] == victim
    assert all(e["pid"] != victim for e in drain(other))     # ... but not the locked one's


def test_a_token_authenticated_client_may_read_it(tmp_path):
    with BackgroundServer(ServerConfig(port=0, token="s3cret", root=tmp_path)) as srv:
        with Client(srv.host, srv.port, token="s3cret") as owner, \
                Client(srv.host, srv.port, token="s3cret") as other:
            victim = load(owner, CHATTY, "victim")
            owner.open_session("owner", pid_lock=victim)
            other.request("stdio", pid=victim)
            assert wait_event(other, "stdout", text="tick\n")["pid"] == victim


def drain(client, seconds: float = 0.3) -> list:
    events, deadline = [], time.monotonic() + seconds
    while (left := deadline - time.monotonic()) > 0:
        event = client.next_event(timeout=left)
        if event is not None:
            events.append(event)
    return events
