"""The host's link protocol against a simulated device over a channel that loses and
corrupts frames (docs/wire.md): every request gets one outcome, runs at most once on
the device, gets its own reply, and the host never overruns the device's window."""
from __future__ import annotations

import time

from hypothesis import given, settings
from hypothesis import strategies as st

from hsx.client.link.protocol import ATTEMPTS, Failed, LinkProtocol, Reply, Reset
from simdevice import SimDevice, ok

RETRY_S = 0.5


def counting_device(**options) -> SimDevice:
    def handler(request):
        return ok(echo=request.get("count"), runs=sum(1 for _, r in device.executed
                                                     if r.get("count") == request.get("count")))
    device = SimDevice(handler, **options)
    return device


class Channel:
    """Moves bytes between the host's link and the device, losing or corrupting the
    transfers `fate` names (one draw per transfer), in virtual time."""

    def __init__(self, link: LinkProtocol, device: SimDevice, fate) -> None:
        self.link, self.device, self.fate = link, device, fate
        self.now = 0.0
        self.outcomes: list = []
        self.resets: list[bool] = []       # per transfer to the device: reset it instead?

    def _spoil(self, data: bytes) -> bytes:
        what = self.fate()
        if what == "lose":
            return b""
        if what == "corrupt" and len(data) > 3:
            middle = len(data) // 2
            return data[:middle] + bytes([data[middle] ^ 0x5A or 1]) + data[middle + 1:]
        return data

    def run(self) -> None:
        for _ in range(10_000):
            to_device = self.link.output()
            if to_device and self.resets and self.resets.pop(0):
                self.outcomes += self.link.received(self.device.reset(), self.now)
                continue                            # what was on its way is lost
            if to_device:
                answer = self.device.feed(self._spoil(to_device))
                if answer:
                    self.outcomes += self.link.received(self._spoil(answer), self.now)
                continue
            deadline = self.link.deadline()
            if deadline is None:
                return
            self.now = max(self.now, deadline)
            self.outcomes += self.link.expire(self.now)
        raise AssertionError("the link never settled")


def greet(link: LinkProtocol, device: SimDevice) -> None:
    link.say_hello()
    link.received(device.feed(link.output()), 0.0)
    assert link.hello["window"] == device.window


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(["deliver"] * 6 + ["lose", "corrupt"]), max_size=60),
       st.integers(1, 12), st.integers(64, 600))
def test_every_request_gets_one_outcome_and_runs_at_most_once(fates, count, window):
    device = counting_device(window=max(window, 64), max_frame=min(window, 512) if window >= 64 else 64)
    link = LinkProtocol(lambda n: RETRY_S)
    greet(link, device)
    plan = iter(fates)
    channel = Channel(link, device, lambda: next(plan, "deliver"))
    for nonce in range(count):
        channel.outcomes += link.submit(nonce, {"cmd": "ping", "count": nonce}, channel.now)
    channel.run()
    by_key = {}
    for outcome in channel.outcomes:
        assert isinstance(outcome, (Reply, Failed))
        assert outcome.key not in by_key, "two outcomes for one request"
        by_key[outcome.key] = outcome
    _every_request_answered_once(by_key, count, device)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(["deliver"] * 6 + ["lose", "corrupt"]), max_size=40),
       st.lists(st.booleans(), max_size=30), st.integers(1, 10))
def test_resets_fail_what_was_in_flight_and_nothing_runs_twice(fates, resets, count):
    device = counting_device()
    link = LinkProtocol(lambda n: RETRY_S)
    greet(link, device)
    plan = iter(fates)
    channel = Channel(link, device, lambda: next(plan, "deliver"))
    channel.resets = list(resets)
    for nonce in range(count):
        channel.outcomes += link.submit(nonce, {"cmd": "ping", "count": nonce}, channel.now)
    channel.run()
    by_key = {}
    for outcome in channel.outcomes:
        if isinstance(outcome, Reset):
            assert outcome.hello["boot"] > 1
            continue
        assert outcome.key not in by_key, "two outcomes for one request"
        by_key[outcome.key] = outcome
    _every_request_answered_once(by_key, count, device)


def _every_request_answered_once(by_key: dict, count: int, device: SimDevice) -> None:
    assert set(by_key) == set(range(count))
    for nonce, outcome in by_key.items():
        if isinstance(outcome, Reply):
            assert outcome.message["echo"] == nonce and outcome.message["version"] == 1
        else:
            assert outcome.code in ("link_timeout", "board_reset")
    runs = [r["count"] for _, r in device.executed]
    assert len(runs) == len(set(runs)), "a request ran twice"
    assert device.overruns == 0


def test_a_lost_reply_is_retried_with_the_same_seq_and_not_run_again():
    device = counting_device()
    link = LinkProtocol(lambda n: RETRY_S)
    greet(link, device)
    link.submit("a", {"cmd": "step", "count": 1}, 0.0)
    device.feed(link.output())                      # ran; the reply is lost
    assert link.expire(RETRY_S - 0.01) == [] and link.output() == b""
    assert link.expire(RETRY_S) == []
    answer = device.feed(link.output())             # the same seq again
    [reply] = link.received(answer, RETRY_S)
    assert reply == Reply("a", {"version": 1, "status": "ok", "echo": 1, "runs": 1})
    assert len(device.executed) == 1


def test_after_the_last_attempt_the_request_fails_with_link_timeout():
    device = counting_device()
    link = LinkProtocol(lambda n: RETRY_S)
    greet(link, device)
    link.submit("a", {"cmd": "ping"}, 0.0)
    outcomes, now = [], 0.0
    for _ in range(ATTEMPTS):
        assert link.output()                        # sent (again); nothing comes back
        now += RETRY_S
        outcomes += link.expire(now)
    assert outcomes == [Failed("a", "link_timeout",
                               f"no reply from the device after {ATTEMPTS} attempts")]


def test_an_n_frame_for_the_request_resends_it_at_once():
    device = counting_device()
    link = LinkProtocol(lambda n: RETRY_S)
    greet(link, device)
    link.submit("a", {"cmd": "ping", "count": 5}, 0.0)
    wire = bytearray(link.output())
    wire[3] ^= 0xFF                                 # the device sees a bad CRC ...
    nack = device.feed(bytes(wire))
    assert link.received(nack, 0.01) == []          # ... answers N; the host sends again
    [reply] = link.received(device.feed(link.output()), 0.02)
    assert reply.message["echo"] == 5


def test_requests_wait_for_the_hello_and_go_one_at_a_time():
    device = counting_device(window=100, max_frame=90)
    link = LinkProtocol(lambda n: RETRY_S)
    link.submit("a", {"cmd": "ping", "count": 1}, 0.0)
    assert link.output() == b""                     # no hello yet: nothing is sent
    link.say_hello()
    outcomes = link.received(device.feed(link.output()), 0.0)
    link.submit("b", {"cmd": "ping", "count": 2}, 0.0)
    first = link.output()
    assert first and device.feed(first)            # only "a" went out
    assert len(device.executed) == 1 and outcomes == []


def test_a_request_larger_than_the_window_is_refused_without_sending():
    device = counting_device(window=100, max_frame=90)
    link = LinkProtocol(lambda n: RETRY_S)
    greet(link, device)
    [failed] = link.submit("big", {"cmd": "poke", "pid": 1, "addr": 0, "data": "00" * 200}, 0.0)
    assert failed.code == "frame_too_large" and "at most 92" in failed.message
    assert link.output() == b"" and link.idle


def test_a_new_boot_fails_what_was_in_flight_and_is_reported():
    device = counting_device()
    link = LinkProtocol(lambda n: RETRY_S)
    greet(link, device)
    link.submit("a", {"cmd": "ping"}, 0.0)
    link.submit("b", {"cmd": "ping"}, 0.0)
    link.output()                                   # "a" is on its way when the board resets
    outcomes = link.received(device.reset(), 0.1)
    assert [type(o) for o in outcomes] == [Failed, Failed, Reset]
    assert {o.key for o in outcomes[:2]} == {"a", "b"}
    assert all(o.code == "board_reset" for o in outcomes[:2])
    assert outcomes[2].hello["boot"] == 2
    link.submit("c", {"cmd": "ping", "count": 3}, 0.2)
    [reply] = link.received(device.feed(link.output()), 0.2)
    assert reply.key == "c"


def test_events_between_replies_are_passed_on_and_stale_replies_dropped():
    device = counting_device()
    link = LinkProtocol(lambda n: RETRY_S)
    greet(link, device)
    link.submit("a", {"cmd": "ping", "count": 1}, 0.0)
    answer = device.feed(link.output())
    event = device.event({"seq": 4, "type": "stdout", "pid": 1, "data": {"text": b"hi"}})
    before = time.time()
    outcomes = link.received(event + answer + answer, 0.0)
    stamped = outcomes[0].message
    assert before <= stamped.pop("ts") <= time.time()        # a board's events have no ts
    assert stamped == {"seq": 4, "type": "stdout", "pid": 1, "data": {"text": "hi"}}
    assert [o.key for o in outcomes[1:]] == ["a"]


def test_a_reply_the_device_no_longer_has_fails_the_request_without_retrying():
    device = counting_device()
    link = LinkProtocol(lambda n: RETRY_S)
    greet(link, device)
    link.submit("a", {"cmd": "poke", "count": 1}, 0.0)
    seq = link._in_flight.seq
    link.output()
    gone = SimDevice._nack("reply_lost", seq)
    [failed] = link.received(gone, 0.1)
    assert failed.key == "a" and failed.code == "reply_lost"
    assert "ran on the device" in failed.message and link.idle and link.output() == b""
