"""Credit-based delivery (`events.subscribe {credit}` and `events.ack`): a consumer that
acknowledges slowly gets at most `credit` events it has not acknowledged; beyond that
its queue applies the usual rules -- a non-owner loses the oldest events, each loss
counted in a warning, and the owner's stops and state changes are never lost: the clock
waits for it.  Every assertion is on conditions and on the executive's accounting, never
on how fast anything ran."""
from __future__ import annotations

import pytest
from serverkit import BLINK, load, state, wait_for
from test_events import ticks

from hsx.client import ProtocolError

TIMEOUT = 30.0


def next_events(client, count: int) -> list[dict]:
    """The next `count` events (waiting for each as long as it takes)."""
    events = []
    for _ in range(count):
        event = client.next_event(timeout=TIMEOUT)
        assert event is not None, f"only {len(events)} of {count} events came"
        events.append(event)
    return events


def next_output(client, count: int) -> list[dict]:
    """Events up to and including the `count`th next `stdout` one (warnings on the way)."""
    events: list[dict] = []
    while sum(e["type"] == "stdout" for e in events) < count:
        events += next_events(client, 1)
    return events


def test_a_slow_observer_gets_credit_events_at_a_time_and_an_account_of_the_rest(connect):
    writes, credit, queue = 200, 4, 8
    client = connect()
    client.open_session("slow", max_events=queue)
    pid = load(client, ticks(writes), "ticks", paused=True)
    sub = client.subscribe(["stdout"], pids=[pid], credit=credit)
    assert (sub["credit"], sub["in_flight"]) == (credit, 0)
    client.request("resume", pid=pid)
    wait_for(lambda: state(client, pid) == "returned", timeout=TIMEOUT)
    # Nothing acknowledged: `credit` events went out, the queue holds the newest `queue`,
    # and everything else the task wrote was dropped -- however fast it ran.
    received = next_output(client, credit)
    stats = client.ack(0)
    assert (stats["delivered"], stats["in_flight"], stats["pending"]) == (credit, credit, queue)
    assert stats["drops"] == writes - credit - queue
    # The consumer works through the rest, acknowledging each batch when it is done.
    left = queue
    while left:
        assert client.ack(received[-1]["seq"])["in_flight"] == 0
        batch = min(credit, left)
        received += next_output(client, batch)
        assert client.ack(0)["in_flight"] == batch           # never more than the credit
        left -= batch
    stdout = [e for e in received if e["type"] == "stdout"]
    dropped = sum(e["data"]["dropped"] for e in received if e["type"] == "warning")
    assert len(stdout) + dropped == writes and dropped == stats["drops"]
    assert [e["seq"] for e in received] == sorted({e["seq"] for e in received})
    assert client.ack(received[-1]["seq"])["pending"] == 0


def test_the_owner_loses_nothing_the_clock_waits_for_its_acknowledgements(connect):
    credit, queue = 2, 8
    client = connect()
    pid = load(client, BLINK, "blink", paused=True)
    client.open_session("debugger", pid_lock=pid, max_events=queue)
    client.subscribe(["task_state"], pids=[pid], credit=credit)
    client.request("resume", pid=pid)
    # Unacknowledged, the owner's state changes fill its queue and the clock holds back.
    wait_for(lambda: client.request("clock")["clock"]["mode"] == "backpressure", timeout=TIMEOUT)
    stats = client.ack(0)
    assert stats["in_flight"] == credit and stats["pending"] >= queue and stats["drops"] == 0
    received = next_events(client, credit)
    # Acknowledged one batch at a time, every transition arrives, in order.
    while len(received) < 60:
        client.ack(received[-1]["seq"])
        received += next_events(client, credit)
        assert client.ack(0)["in_flight"] == credit
    assert all(e["type"] == "task_state" for e in received)
    for before, after in zip(received, received[1:]):
        assert after["data"]["prev_state"] == before["data"]["new_state"]
        assert after["seq"] > before["seq"]
    # With the credit gone (a subscription without one), the clock runs freely again.
    client.subscribe(["task_state"], pids=[pid])
    wait_for(lambda: client.request("clock")["clock"]["mode"] != "backpressure", timeout=TIMEOUT)
    assert client.ack(0)["credit"] is None


def test_credit_is_checked(connect):
    client = connect()
    for bad in (-1, 1 << 17, "lots"):
        with pytest.raises(ProtocolError) as refused:
            client.subscribe(["stdout"], credit=bad)
        assert refused.value.code == "bad_argument" and "'credit'" in refused.value.message
