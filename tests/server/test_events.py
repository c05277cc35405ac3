"""The event stream: filters, bounded queues, loss warnings, back-pressure, resync."""
from __future__ import annotations

import json
import socket
import statistics
import time
from itertools import groupby
from operator import attrgetter

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from mvasmkit import HELLO
from serverkit import BLINK, CHATTY, FIVE_LINES, LOOP, Raw, load, state, wait_event, wait_for

from hsx.client import Client, ProtocolError
from hsx.server import BackgroundServer, ServerConfig


@pytest.fixture
def small_buffers(tmp_path):
    """An executive that buffers little per connection, so a stalled reader backs up fast."""
    with BackgroundServer(ServerConfig(port=0, root=tmp_path, write_buffer=4096)) as srv:
        yield srv


def test_filters_by_pid_and_category_prefix(connect):
    client = connect()
    chatty = load(client, CHATTY, "chatty", paused=True)
    hello = load(client, HELLO, "hello", paused=True)
    sub = client.subscribe("mailbox", pids=[hello])
    assert sub["filters"] == [{"pids": [hello], "categories": ["mailbox"]}]
    client.request("resume", pid=chatty)
    client.request("resume", pid=hello)
    wait_for(lambda: state(client, hello) == "returned")
    events = list(client.events(timeout=0.3))
    assert events and all(e["pid"] == hello and e["type"].startswith("mailbox_") for e in events)
    with pytest.raises(ProtocolError) as unknown:
        client.subscribe(["telepathy"])
    assert unknown.value.code == "unsupported_category"


def test_default_categories_leave_out_high_rate_scheduler_events(connect):
    client = connect()
    client.subscribe()
    load(client, LOOP, "a")
    load(client, LOOP, "b")
    time.sleep(0.2)
    types = {e["type"] for e in client.events(timeout=0.2)}
    assert "task_state" in types and "scheduler" not in types
    client.subscribe(["scheduler"])
    event = wait_event(client, "scheduler")
    assert event["data"]["event"] == "switch"


def test_events_interleave_with_replies_on_one_connection(connect):
    client = connect()
    client.subscribe(["stdout"])
    load(client, CHATTY, "chatty")
    for _ in range(50):
        assert client.request("ping")["reply"] == "pong"
    assert client.next_event(timeout=2)["type"] == "stdout"


def test_ack_and_unsubscribe(connect):
    client = connect()
    client.open_session("acker")
    client.subscribe(["task_state"])
    load(client, HELLO, "hello")
    event = wait_event(client, "task_state")
    acked = client.request("events.ack", seq=event["seq"])["events"]
    assert acked["last_ack"] == event["seq"]
    assert client.request("events.unsubscribe")["unsubscribed"] is True
    with pytest.raises(ProtocolError) as none:
        client.request("events.ack", seq=1)
    assert none.value.code == "not_subscribed"


def test_slow_subscriber_loses_oldest_with_a_warning_and_nobody_slows_down(small_buffers):
    server = small_buffers
    fast = Client(server.host, server.port)
    load(fast, CHATTY, "chatty")
    slow = Raw(server, rcvbuf=4096)
    reply = slow.request({"cmd": "session.open", "client": "slow",
                          "capabilities": {"max_events": 64}})
    session = reply["session"]["id"]
    assert slow.request({"cmd": "events.subscribe", "session": session,
                         "categories": ["stdout"]})["status"] == "ok"
    # the slow client now stops reading; the executive must not care
    hub = server.server.hub
    wait_for(lambda: hub.get(server.server.sessions.get(session)).dropped > 1000, timeout=10)
    latencies = []
    for _ in range(30):
        started = time.perf_counter()
        fast.request("ping")
        latencies.append(time.perf_counter() - started)
    assert statistics.median(latencies) < 0.02
    sub = hub.get(server.server.sessions.get(session))
    assert sub.pending <= 64
    before = fast.request("regs", pid=1)["registers"]["steps"]
    time.sleep(0.1)
    assert fast.request("regs", pid=1)["registers"]["steps"] > before     # clock still runs
    # when it reads again, it learns how much it lost
    warning = None
    for _ in range(200_000):
        event = slow.line()
        if event.get("type") == "warning":
            warning = event
            break
    assert warning is not None and warning["data"]["reason"] == "events_dropped"
    assert warning["data"]["dropped"] > 0 and warning["data"]["last_seq"] == warning["seq"]
    fast.close()
    slow.close()


def test_owner_never_loses_critical_events_the_clock_waits_instead(small_buffers):
    server = small_buffers
    helper = Client(server.host, server.port)
    pid = load(helper, BLINK, "blink", paused=True)
    owner = Raw(server, rcvbuf=4096)
    session = owner.request({"cmd": "session.open", "client": "debugger", "pid_lock": pid,
                             "capabilities": {"max_events": 32}})["session"]["id"]
    owner.request({"cmd": "events.subscribe", "session": session, "categories": ["task_state"]})
    owner.request({"cmd": "resume", "session": session, "pid": pid})
    # the owner stops reading: its task_state events pile up until the clock holds back.
    # (The clock may hold back for a moment earlier, while the connection's writes catch
    # up with a burst; once the owner's socket is full it stays held.)
    def steps() -> int:
        return helper.request("regs", pid=pid)["registers"]["steps"]

    def held_back() -> int | None:
        before = steps()
        time.sleep(0.2)
        held = helper.request("clock")["clock"]["mode"] == "backpressure"
        return before if held and steps() == before else None

    frozen = wait_for(held_back, timeout=10)
    time.sleep(0.2)
    assert steps() == frozen
    assert helper.request("ping")["reply"] == "pong"            # the server itself is fine
    # the owner catches up: every transition is there, in order, with no loss warning
    events = [owner.line() for _ in range(300)]    # the backlog and then some
    assert all(e["type"] == "task_state" for e in events)
    seqs = [e["seq"] for e in events]
    assert seqs == list(range(seqs[0], seqs[0] + len(seqs)))
    wait_for(lambda: steps() > frozen)
    helper.close()
    owner.close()


def test_since_seq_replays_retained_history(connect):
    client = connect()
    pid = load(client, HELLO, "hello")
    wait_for(lambda: state(client, pid) == "returned")
    late = connect()
    sub = late.subscribe(["task_state", "stdout"], since_seq=0)
    assert sub["replayed"] >= 3
    replayed = list(late.events(timeout=0.3))
    assert [e["data"].get("new_state") for e in replayed if e["type"] == "task_state"] == \
        ["ready", "returned"]
    assert any(e["type"] == "stdout" and e["data"]["text"] == "hello\n" for e in replayed)
    middle = replayed[0]["seq"]
    again = connect()
    again.subscribe(["task_state", "stdout"], since_seq=middle)
    assert [e["seq"] for e in again.events(timeout=0.3)] == [e["seq"] for e in replayed[1:]]
    with pytest.raises(ProtocolError) as future:
        again.subscribe(since_seq=10**9)
    assert future.value.code == "seq_evicted"


def test_since_seq_that_fell_out_of_history_is_seq_evicted(tmp_path):
    with BackgroundServer(ServerConfig(port=0, root=tmp_path)) as srv:
        with Client(srv.host, srv.port) as client:
            pid = load(client, CHATTY, "chatty")
            kept = client.request("info")["info"]["limits"]["event_history"]
            wait_for(lambda: client.request("info")["info"]["events"]["last_seq"] > kept + 600,
                     timeout=30)
            client.request("pause", pid=pid)
            with pytest.raises(ProtocolError) as evicted:
                client.subscribe(["stdout"], since_seq=1)
            assert evicted.value.code == "seq_evicted"
            assert evicted.value.reply["oldest_seq"] > 2
            oldest = evicted.value.reply["oldest_seq"]
            assert client.subscribe(["stdout"], since_seq=oldest)["replayed"] > 0


def ticks(count: int) -> str:
    """A task that writes "tick\\n" `count` times, then returns."""
    return f"""
.data
msg: .ascii "tick\\n"
.text
.entry start
start:
    LDI32 R5, {count}
again:
    LDI R1, 1
    LDI32 R2, msg
    LDI R3, 5
    SVC MOD=4, FN=2
    ADDI R5, R5, -1
    JNZ again
    RET
"""


def output_accounts(events: list[dict]) -> tuple[int, int]:
    """Writes delivered in `stdout` events (a run of one write is a plain event, without
    `writes`), and events reported lost."""
    delivered = sum(e["data"].get("writes", 1) for e in events if e["type"] == "stdout")
    lost = sum(e["data"]["dropped"] for e in events if e["type"] == "warning")
    return delivered, lost


def test_coalesced_output_is_every_write_in_fewer_events(connect):
    """A chatty task's writes reach a coalescing subscriber joined, none lost or
    repeated, when its queue can hold everything the task does (so no machine is fast
    enough to overflow it); `writes` and `seq` account for every write.  The mailbox
    events of each write go out before the run that passes them: seq only grows."""
    count = 6000                                   # x 2 events < the queue's 16,384
    merged = connect()
    merged.open_session("merged", max_events=16 * 1024)
    pid = load(merged, ticks(count), "ticks", paused=True)
    assert merged.subscribe(["stdout", "mailbox_send"], pids=[pid],
                            coalesce_ms=20)["coalesce_ms"] == 20
    merged.request("resume", pid=pid)
    wait_for(lambda: state(merged, pid) == "returned", timeout=60)
    events = list(merged.events(timeout=0.5))
    runs = [e for e in events if e["type"] == "stdout"]
    sends = [e for e in events if e["type"] == "mailbox_send"]
    assert not [e for e in events if e["type"] == "warning"]
    assert output_accounts(events) == (count, 0) and len(runs) < count / 5
    assert "".join(r["data"]["text"] for r in runs) == "tick\n" * count
    assert [e["seq"] for e in events] == sorted({e["seq"] for e in events})
    assert len(sends) == count                        # passed, not dropped


def test_a_subscriber_that_falls_behind_is_told_what_it_lost(small_buffers):
    """A subscriber that is not the task's owner and does not read loses the oldest
    events when its queue is full, never silently: every event the task caused is
    either delivered, in seq order, or counted by a `warning` in its place, and the
    executive does not wait for it (the task runs to its end)."""
    count = 20_000
    client = Client(small_buffers.host, small_buffers.port, timeout=10)
    try:
        # A small receive window and queue: the task's 40,000 events cannot all fit.
        client._sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 16 * 1024)
        client.open_session("slow", max_events=64)
        pid = load(client, ticks(count), "ticks", paused=True)
        client.subscribe(["stdout", "mailbox_send"], pids=[pid],
                         coalesce_ms=20)
        client.request("resume", pid=pid)
        wait_for(lambda: state(client, pid) == "returned", timeout=120)
        events = list(client.events(timeout=0.5))
    finally:
        client.close()
    delivered, lost = output_accounts(events)
    sends = sum(1 for e in events if e["type"] == "mailbox_send")
    assert delivered + sends + lost == 2 * count
    assert lost > 0
    assert [e["seq"] for e in events] == sorted({e["seq"] for e in events})
    for warning in (e for e in events if e["type"] == "warning"):
        assert warning["data"]["first_seq"] <= warning["data"]["last_seq"] == warning["seq"]


def test_coalesced_output_comes_before_the_event_that_follows_it(connect):
    """Output waits for more only while nothing follows it: the task's end goes out at
    once, with all the output before it (held 1 s otherwise)."""
    client = connect()
    client.subscribe(["stdout", "task_state"], coalesce_ms=1000)
    started = time.monotonic()
    pid = load(client, FIVE_LINES, "five")
    live = []
    while not live or live[-1]["data"].get("new_state") != "returned":
        live.append(client.next_event(timeout=5))
    assert time.monotonic() - started < 0.9
    assert "".join(e["data"]["text"] for e in live if e["type"] == "stdout") == "line\n" * 5
    ended = live[-1]
    client.subscribe(["stdout", "task_state"], pids=[pid], since_seq=0, coalesce_ms=1000)
    replay = list(client.events(timeout=0.3))
    output = [e for e in replay if e["type"] == "stdout"]
    assert [(e["data"]["text"], e["data"]["writes"]) for e in output] == [("line\n" * 5, 5)]
    assert output[0]["seq"] < ended["seq"] == replay[-1]["seq"]


def test_output_at_the_end_of_the_queue_waits_for_more(connect):
    client = connect()
    client.subscribe(["stdout"], coalesce_ms=300)
    started = time.monotonic()
    load(client, FIVE_LINES, "five")
    event = wait_event(client, "stdout")
    assert time.monotonic() - started >= 0.3
    assert event["data"] == {"text": "line\n" * 5, "writes": 5}
    with pytest.raises(ProtocolError) as refused:
        client.subscribe(["stdout"], coalesce_ms=5000)
    assert refused.value.code == "bad_argument" and "coalesce_ms" in refused.value.message


def test_an_output_run_never_passes_a_stop_or_other_output():
    """Queue-level: what a run may pass (droppable events) and what it may not (a
    critical event, another task's output), and its hold at the end of the queue."""
    from hsx.kernel.events import Event
    from hsx.server.subscriptions import Subscription, Wire

    class Sink:
        def events_ready(self, sub): pass

    sub = Subscription(1, Sink(), None, 100, hub=None)
    sub.coalesce_s = 60.0
    seq = iter(range(1, 100))

    def offer(type_, pid, critical=False, **data):
        sub.offer(Wire(Event(next(seq), 0.0, type_, pid, data), 0.0), critical)

    offer("stdout", 1, text="a")
    offer("mailbox_send", 1)
    offer("stdout", 1, text="b")                     # passes the send
    offer("debug_break", 1, critical=True)
    offer("stdout", 1, text="c")                     # not past the stop: a new run
    offer("stdout", 2, text="x")
    offer("stdout", 1, text="d")                     # not past task 2's output
    taken = [json.loads(line) for chunk in sub.take(100) for line in chunk.splitlines()]
    assert [(e["type"], e["pid"], e["data"].get("text"), e["seq"]) for e in taken] == [
        ("mailbox_send", 1, None, 2), ("stdout", 1, "ab", 3), ("debug_break", 1, None, 4),
        ("stdout", 1, "c", 5), ("stdout", 2, "x", 6)]
    assert sub.held_until() is not None              # "d" waits for more
    offer("stdout", 1, text="e")
    sub.coalesce_s = 0.0                             # (as if the time were up)
    assert [json.loads(line)["data"] for chunk in sub.take(100)
            for line in chunk.splitlines()] == [{"text": "de", "writes": 2}]


def test_a_held_output_run_does_not_keep_the_connection_from_being_told_again():
    """The sink is told once until it has taken everything; output held back to
    coalesce counts as taken, so the event after it wakes the sink again."""
    from hsx.kernel.events import Event
    from hsx.server.subscriptions import Subscription, Wire

    class Sink:
        told = 0

        def events_ready(self, sub):
            self.told += 1

    sink = Sink()
    sub = Subscription(1, sink, None, 100, hub=None)
    sub.coalesce_s = 60.0
    sub.offer(Wire(Event(1, 0.0, "stdout", 1, {"text": "a"}), 0.0), False)
    sub.offer(Wire(Event(2, 0.0, "stdout", 1, {"text": "b"}), 0.0), False)
    assert sink.told == 1                            # once, not per event
    assert sub.take(100) == [] and sub.held_until() is not None
    sub.offer(Wire(Event(3, 0.0, "task_state", 1, {}), 0.0), False)
    assert sink.told == 2
    taken = [json.loads(line) for chunk in sub.take(100) for line in chunk.splitlines()]
    assert [(e["type"], e["seq"]) for e in taken] == [("stdout", 2), ("task_state", 3)]


def test_events_taken_together_are_the_lines_each_would_be_alone():
    """A queue's events are encoded in one go; the lines are those of `encode` for each
    event, also when an event's data looks like the boundary between two events, when
    orjson refuses one (an integer beyond 64 bits), and for events other queues share."""
    from hsx.kernel.events import Event
    from hsx.server.framing import encode
    from hsx.server.subscriptions import Wire, joined_lines

    def wires(*datas):
        return [Wire(Event(n, 1.5 + n / 7, "scheduler", 2, data), 1e9)
                for n, data in enumerate(datas, 1)]

    def alone(items):
        return b"".join(encode(w.envelope()) for w in items)

    plain = wires({"to": 1}, {"text": 'x},{"seq":1}'}, {"to": 3})
    assert joined_lines(plain) == alone(plain)
    assert [json.loads(line)["seq"] for line in joined_lines(plain).splitlines()] == [1, 2, 3]
    assert json.loads(alone(plain[:1]))["ts"] == round(1.5 + 1 / 7 + 1e9, 6)
    nested = wires({"to": 1}, {"list": [0, {"seq": 5}]}, {"to": 3})
    assert joined_lines(nested) == alone(nested)
    huge = wires({"to": 1}, {"n": 1 << 70}, {"to": 3})
    assert joined_lines(huge) == alone(huge)
    shared = wires({"to": 1}, {"to": 2}, {"to": 3}, {"to": 4})
    shared[1].shared = True
    expected = alone(shared)
    assert joined_lines(shared) == expected
    assert shared[1].line() == expected.splitlines(keepends=True)[1]


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(max_events=st.integers(1, 8), before=st.lists(st.booleans(), max_size=12),
       batch=st.integers(0, 12), taken=st.integers(0, 4))
def test_a_batch_offered_at_once_leaves_what_offering_it_event_by_event_does(
        max_events, before, batch, taken):
    """`offer_many` (the hub's batch path) and `offer` one by one: the same queue, the
    same losses and warning, the same high-water mark, the sink told as often."""
    from hsx.kernel.events import Event
    from hsx.server.subscriptions import Subscription, Wire

    class Sink:
        told = 0

        def events_ready(self, sub):
            self.told += 1

    class Hub:
        def unsaturated(self):
            pass

    def queue(many):
        sink = Sink()
        sub = Subscription(1, sink, None, max_events, hub=Hub())
        seq = iter(range(1, 100))
        for critical in before:                 # a queue in any state, owner events too
            sub.offer(Wire(Event(next(seq), 0.0, "task_state" if critical else "scheduler",
                                 1, {}), 0.0), critical)
        if taken and not sub.saturated:
            sub.take(taken)
        wires = [Wire(Event(next(seq), 0.0, "scheduler", 1, {}), 0.0) for _ in range(batch)]
        if many:
            sub.offer_many(wires)
        else:
            for wire in wires:
                sub.offer(wire, False)
        state = (sub.pending, sub.dropped, sub.high_water, sub._lost, sub._lost_first,
                 sub._lost_last, sink.told, [w.seq for w in sub._droppable],
                 [w.seq for w in sub._critical])
        return state, [json.loads(line) for chunk in sub.take(100)
                       for line in chunk.splitlines()]

    (state_one, lines_one), (state_many, lines_many) = queue(False), queue(True)
    assert state_many == state_one
    for line in lines_one + lines_many:
        line.pop("ts")
    assert lines_many == lines_one


def test_mailbox_traffic_reaches_live_subscribers_and_is_not_replayed(connect):
    """mailbox_send/mailbox_recv (one per message, a task's writes included) go to those
    subscribed when they happen, but are not retained for `since_seq`, like the
    high-rate types; the output itself is."""
    live = connect()
    live.subscribe(["mailbox_send", "mailbox_recv", "stdout", "task_state"])
    pid = load(live, HELLO, "hello")
    seen: list[dict] = []
    while not seen or seen[-1]["data"].get("new_state") != "returned":
        event = live.next_event(timeout=30)
        assert event is not None, seen
        seen.append(event)
    write = [e["type"] for e in seen if e["type"] != "task_state"]
    assert write == ["mailbox_send", "mailbox_recv", "stdout"]
    assert [e["seq"] for e in seen] == sorted(e["seq"] for e in seen)
    late = connect()
    replayed = late.subscribe(["mailbox_send", "mailbox_recv", "stdout"], since_seq=0)
    assert replayed["replayed"] == 1
    event = late.next_event(timeout=30)
    assert (event["type"], event["pid"], event["data"]["text"]) == ("stdout", pid, "hello\n")


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(writes=st.lists(st.tuples(st.sampled_from([1, 2, 3]), st.sampled_from(["stdout", "stderr"]),
                                 st.text(max_size=3)), min_size=1, max_size=14),
       subscribers=st.lists(st.tuples(st.none() | st.frozensets(st.sampled_from([1, 2, 3])),
                                      st.booleans(), st.booleans(), st.integers(1, 8)),
                            min_size=1, max_size=3),
       locked=st.lists(st.sampled_from([1, 2, 3]), max_size=2, unique=True))
def test_output_offered_as_a_batch_leaves_the_queues_one_write_at_a_time_does(
        writes, subscribers, locked):
    """A run's writes reach the hub in one call (the bus holds them): each subscriber's
    queue is what offering each write on its own leaves -- its PID filter, the output
    of a task a session locked only for that session (or a trusted client), coalesced
    runs, losses and their warning."""
    from hsx.kernel.events import Event, EventBus
    from hsx.server.subscriptions import Clause, EventHub

    class Session:
        locks: frozenset = frozenset()

    class Sink:
        def events_ready(self, sub):
            pass

    sessions = [Session() for _ in subscribers]
    owner = {pid: sessions[n % len(sessions)] for n, pid in enumerate(locked)}

    def queues(batched: bool) -> list:
        hub = EventHub(EventBus(lambda: 0.0), 0.0, lambda: None, owner.get)
        subs = []
        for n, (pids, trusted, coalesce, max_events) in enumerate(subscribers):
            sub, _ = hub.subscribe(n, Sink(), sessions[n], max_events,
                                   [Clause(pids, ("stdout", "stderr"))],
                                   coalesce_ms=60_000 if coalesce else None)
            sub.trusted = trusted
            subs.append(sub)
        events = [Event(seq, 0.5, type_, pid, {"text": text})
                  for seq, (pid, type_, text) in enumerate(writes, 1)]
        if batched:                          # as the bus hands them: runs of one type
            for _, run in groupby(events, attrgetter("type")):
                hub._on_events(list(run))
        else:
            for event in events:
                hub._on_event(event)
        taken = []
        for sub in subs:
            sub.coalesce_s = 0.0             # nothing held back: everything is taken
            lines = [json.loads(line) for chunk in sub.take(100) for line in chunk.splitlines()]
            for line in lines:
                line.pop("ts")
            taken.append((lines, sub.dropped, sub.high_water))
        return taken

    assert queues(batched=True) == queues(batched=False)
