"""`FramedClient`: the blocking client over a framed link (`socket://`, `serial://`).

The same API as `Client` (it is one: sessions, subscriptions, events and the debugger
helpers are inherited); only the link differs.  Requests go through `LinkProtocol`
(frames, the window, retries), `load {image}` becomes a streamed load in chunks, and a
board reset fails what was in flight with `board_reset` and queues a `board_reset`
event for the front end (the session and subscription it had are gone).
"""
from __future__ import annotations

import time
from typing import Any, Hashable

from ..drive import drive
from ..errors import ConnectionClosed
from ..sync import Client
from ..url import Endpoint
from ..wire import Progress, check
from .load import chunk_size, streamed_load
from .protocol import Event, Failed, LinkProtocol, Outcome, Reply, Reset
from .streams import SyncStream, attempt_timeout, open_sync

HELLO_TRIES = 4


class FramedClient(Client):
    def __init__(self, endpoint: Endpoint, *, timeout: float = 10.0, token: str | None = None,
                 max_events: int = 100_000, progress: Progress | None = None,
                 stream: SyncStream | None = None) -> None:
        """`stream`: an open byte stream to use instead of opening the endpoint's."""
        self.endpoint = endpoint
        self.host, self.port = endpoint.host or endpoint.device, endpoint.port
        self._init_state(timeout, max_events)
        self.progress = progress
        self.resets = 0                      # board resets seen
        self._replies: dict[Hashable, dict[str, Any]] = {}
        self._stream = stream or open_sync(endpoint, timeout)
        self._link = LinkProtocol(attempt_timeout(self._stream.baud, timeout, endpoint.retry_s))
        try:
            self._greet()
            if token is not None:
                self.request("ping", token=token)
        except BaseException:
            self._stream.close()
            raise

    @property
    def hello(self) -> dict[str, Any]:
        """The device's hello: `variant`, `features`, `window`, `max_frame`, `boot`, …"""
        return self._link.hello or {}

    def close(self) -> None:
        self._stream.close()

    def _greet(self) -> None:
        """Ask for the device's hello until it answers (it may still be booting)."""
        deadline = time.monotonic() + self.timeout
        wait = self._link.attempt_timeout(8) if self.endpoint.retry_s else self.timeout / HELLO_TRIES
        while self._link.hello is None:
            left = deadline - time.monotonic()
            if self._link.refused:
                raise ConnectionClosed(f"{self.endpoint}: {self._link.refused}")
            if left <= 0:
                raise ConnectionClosed(f"no hello from {self.endpoint} within {self.timeout:g} s: "
                                       "is it running the HSX executive?")
            self._link.say_hello()
            self._flush()
            until = time.monotonic() + min(wait, left)
            while self._link.hello is None and not self._link.refused and time.monotonic() < until:
                self._pump(until)

    # ------------------------------------------------------------------ requests

    def request(self, cmd: str, **fields: Any) -> dict[str, Any]:
        if self.session is not None:
            self._keepalive_if_due()
        if cmd.lower() in ("load", "exec") and "image" in fields:
            steps = streamed_load(fields, chunk_size(int(self.hello.get("max_frame", 64))),
                                  self.progress)
            return drive(steps, lambda c, f: self._exchange(c, f))
        return self._exchange(cmd, fields)

    def _exchange(self, cmd: str, fields: dict[str, Any]) -> dict[str, Any]:
        key = self._send(cmd, fields)
        deadline = time.monotonic() + self.timeout
        while key not in self._replies:
            if time.monotonic() >= deadline:
                self._apply(self._link.cancel(key, time.monotonic()))
                self._flush()
                raise TimeoutError(f"no reply to {cmd!r} within {self.timeout} s")
            self._pump(deadline)
        reply = self._replies.pop(key)
        reply["id"] = key
        return check(reply)

    def _send(self, cmd: str, fields: dict[str, Any]) -> int:
        key = self._next_id
        self._next_id += 1
        message = {"cmd": cmd, **fields}
        if self.session_id is not None and "session" not in fields:
            message["session"] = self.session_id
        now = time.monotonic()
        self._apply(self._link.submit(key, message, now))
        self._flush()
        self._last_sent = now
        return key

    # ------------------------------------------------------------------ events

    def next_event(self, timeout: float | None = None) -> dict[str, Any] | None:
        deadline = None if timeout is None else time.monotonic() + timeout
        while not self._events:
            self._keepalive_if_due()
            tick = self._tick()
            until = deadline
            if tick is not None:
                until = time.monotonic() + tick if until is None else min(until, time.monotonic() + tick)
            self._pump(until)
            if not self._events and deadline is not None and time.monotonic() >= deadline:
                return None
        return self._events.popleft()

    # ------------------------------------------------------------------ the link

    def _pump(self, until: float | None) -> None:
        """Read what arrives before `until` (or the link's next retry), once."""
        retry = self._link.deadline()
        limit = retry if until is None else until if retry is None else min(until, retry)
        wait = None if limit is None else max(0.0, limit - time.monotonic())
        data = self._stream.read(wait)
        now = time.monotonic()
        if data:
            self._apply(self._link.received(data, now))
        self._apply(self._link.expire(now))
        self._flush()

    def _flush(self) -> None:
        data = self._link.output()
        if data:
            self._stream.write(data)

    def _apply(self, outcomes: list[Outcome]) -> None:
        for outcome in outcomes:
            if isinstance(outcome, (Reply, Failed)):
                if outcome.key in self._ignore:          # a keepalive's
                    self._ignore.discard(outcome.key)
                else:
                    self._replies[outcome.key] = (outcome.message if isinstance(outcome, Reply)
                                                  else failure(outcome))
            elif isinstance(outcome, Event):
                self._queue(outcome.message)
            elif isinstance(outcome, Reset):
                self.resets += 1
                self.session_id = self.session = None
                self._queue(reset_event(outcome.hello))


def failure(outcome: Failed) -> dict[str, Any]:
    """The error reply a request the link gave up on gets."""
    return {"version": 1, "status": "error", "error": outcome.code, "message": outcome.message}


def reset_event(hello: dict[str, Any]) -> dict[str, Any]:
    """What a front end hears when the board resets (docs/protocol.md, "Client library")."""
    return {"seq": None, "ts": time.time(), "type": "board_reset", "pid": None,
            "data": {k: hello.get(k) for k in ("boot", "board", "variant")}}
