"""A client that sends its next request the moment it has a reply gets it answered
without the executive sleeping in between (it looks for the request briefly): that must
never keep the executive from anyone else.  Against `hsx execd` in its own process, the
only place it looks (an executive embedded in a program does not)."""
from __future__ import annotations

import threading
import time
from contextlib import contextmanager

import pytest
from execdkit import execd_child
from serverkit import LOOP, load

from hsx.client import Client


@pytest.fixture
def execd(tmp_path):
    yield from execd_child(tmp_path / "fs")


@contextmanager
def stepping_in_a_loop(address, pid: int):
    """Meanwhile another client steps task `pid` back to back; yields [steps so far]."""
    stop, done = threading.Event(), [0]

    def loop() -> None:
        with Client(*address) as quick:
            while not stop.is_set():
                quick.request("step", pid=pid, count=1)
                done[0] += 1

    thread = threading.Thread(target=loop)
    thread.start()
    try:
        yield done
    finally:
        stop.set()
        thread.join(timeout=10)


def test_a_client_stepping_in_a_loop_does_not_hold_up_another(execd):
    with Client(*execd) as setup:
        pid = load(setup, LOOP, "loop", paused=True)
    with stepping_in_a_loop(execd, pid) as done, Client(*execd, timeout=5) as other:
        other.request("ping")
        before = done[0]
        replies = []
        deadline = time.monotonic() + 60
        while (len(replies) < 200 or done[0] - before < 10) and time.monotonic() < deadline:
            replies.append(other.request("ping")["reply"])   # each within its 5 s timeout
        during = done[0] - before
    assert set(replies) == {"pong"} and during >= 10     # both were answered meanwhile


def test_a_subscriber_gets_its_events_while_another_client_steps_in_a_loop(execd):
    with Client(*execd) as setup:
        stepped = load(setup, LOOP, "stepped", paused=True)
        watched = load(setup, LOOP, "watched", paused=True)
    with stepping_in_a_loop(execd, stepped) as done, Client(*execd, timeout=5) as subscriber:
        subscriber.subscribe(["task_state"], pids=[watched])
        states = []
        for _ in range(20):
            subscriber.request("resume", pid=watched)
            subscriber.request("pause", pid=watched)
            states += [e["data"]["new_state"] for e in _events_until_paused(subscriber)]
    assert states.count("paused") == 20 and done[0] > 0


def _events_until_paused(client: Client) -> list[dict]:
    events = []
    while not events or events[-1]["data"]["new_state"] != "paused":
        event = client.next_event(timeout=5)
        assert event is not None, "no task_state event within 5 s"
        events.append(event)
    return events
