"""`Client`: a blocking client on one socket, for scripts, the shell and tests.

All I/O happens in the calling thread: `request` reads until its own reply arrives and
queues any events it passes on the way; `next_event`/`events` read more.  While a
session is open, a keepalive is sent from inside those calls whenever one is due, so a
client that keeps talking or listening never expires.  Not thread-safe: use one
`Client` per thread, or `AsyncClient`.

A request is one `send` and usually one `recv`.  On 64-bit Linux the socket blocks
and the kernel keeps the timeouts (SO_RCVTIMEO/SO_SNDTIMEO, set again only when the
wait changes by more than `_TIMEOUT_STEP`); elsewhere it is non-blocking and waited on
with `poll` (`select` on Windows), one call more.  A socket with a Python timeout would
make a request a `poll` before the send, an `ioctl` and a `poll` before the read
(CPython waits that way): a fifth of a `step`'s round trip.
"""
from __future__ import annotations

import math
import os
import select
import socket
import struct
import sys
import time
from collections import deque
from typing import Any, Callable, Iterator

from .errors import ConnectionClosed
from .helpers import install
from .wire import (DEFAULT_HOST, DEFAULT_PORT, check, decode, encode_request, is_event,
                   session_open_fields, subscribe_fields)

_READ = 1 << 16
_TIMEOUT_STEP = 0.01            # kernel timeouts are set in steps of this many seconds
# struct timeval as SO_RCVTIMEO/SO_SNDTIMEO take it: two longs on 64-bit Linux
_KERNEL_TIMEOUTS = sys.platform.startswith("linux") and struct.calcsize("@l") == 8
SPIN_S = 0.0002                 # how long `request` looks for its reply before sleeping
_CAN_SPIN = hasattr(socket, "MSG_DONTWAIT") and hasattr(os, "sched_yield")


class Client:
    def __init__(self, host: str = DEFAULT_HOST, port: int = DEFAULT_PORT, *,
                 timeout: float = 10.0, token: str | None = None,
                 max_events: int = 100_000, spin_s: float = SPIN_S) -> None:
        """`spin_s`: how long a request looks for its reply (yielding the CPU in between)
        before it sleeps until the reply comes; 0 sleeps at once (see `_spin`)."""
        self.host, self.port, self.timeout = host, port, timeout
        self.session_id: str | None = None
        self.session: dict[str, Any] | None = None
        self.events_dropped = 0          # events discarded because nobody read them
        self._events: deque[dict[str, Any]] = deque()
        self._max_events = max_events
        # An ASCII name as bytes: socket encodes a str with the "idna" codec, whose
        # import costs a one-shot `hsx shell CMD` milliseconds of its start-up.
        address = host.encode() if host.isascii() else host
        self._sock = socket.create_connection((address, port), timeout=timeout)
        self._sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self._rcvtimeo = -1.0                    # SO_RCVTIMEO as last set (0: none)
        self._spin_s = 0.0
        if _KERNEL_TIMEOUTS:
            self._sock.settimeout(None)
            self._sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDTIMEO, _timeval(timeout))
            self._poll = None
            self._spin_s = spin_s if _CAN_SPIN and _other_cpus() else 0.0
        else:
            self._sock.setblocking(False)
            self._poll = _poller(self._sock)
        self._buf = bytearray()                  # the start of a line still arriving
        self._lines: deque[bytearray] = deque()  # lines received, not yet read
        self._next_id = 1
        self._ignore: set[int] = set()           # ids of keepalives nobody waits for
        self._last_sent = time.monotonic()
        if token is not None:
            self.request("ping", token=token)

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def close(self) -> None:
        try:
            self._sock.close()
        except OSError:
            pass

    # ------------------------------------------------------------------ requests

    def request(self, cmd: str, **fields: Any) -> dict[str, Any]:
        """Send one request and return its ok reply, or raise ProtocolError."""
        if self.session is not None:
            self._keepalive_if_due()
        request_id = self._send(cmd, fields)
        deadline = self._last_sent + self.timeout            # (read by _send just now)
        if self._spin_s and not self._lines:
            self._spin()
        while True:
            message = self._read(deadline)
            if message is None:
                raise TimeoutError(f"no reply to {cmd!r} within {self.timeout} s")
            if "status" not in message:                      # is_event
                self._queue(message)
            elif message.get("id") == request_id:
                if message["status"] == "ok":                # check(), the common case
                    return message
                return check(message)
            else:
                self._ignore.discard(message.get("id"))

    def _send(self, cmd: str, fields: dict[str, Any]) -> int:
        request_id = self._next_id
        self._next_id += 1
        data = encode_request(cmd, fields, request_id, self.session_id)
        try:
            if self._poll is None:
                self._sock.sendall(data)         # blocks at most SO_SNDTIMEO per call
            else:
                try:
                    sent = self._sock.send(data)
                except BlockingIOError:
                    sent = 0
                if sent < len(data):
                    self._send_rest(memoryview(data)[sent:])
        except BlockingIOError:
            raise ConnectionClosed(f"cannot send to the executive: it took nothing for "
                                   f"{self.timeout} s") from None
        except OSError as error:
            raise ConnectionClosed(f"cannot send to the executive: {error}") from None
        self._last_sent = time.monotonic()
        return request_id

    def _send_rest(self, data: memoryview) -> None:
        """The part of a line the socket did not take at once (a large `load`, or an
        executive that stopped reading), within the client's timeout."""
        deadline = time.monotonic() + self.timeout
        while data:
            wait = deadline - time.monotonic()
            if wait <= 0 or not _writable(self._sock, wait):
                raise TimeoutError(f"the executive took nothing for {self.timeout} s")
            try:
                data = data[self._sock.send(data):]
            except BlockingIOError:
                pass

    # ------------------------------------------------------------------ sessions

    def open_session(self, client: str = "hsx.client", *, pid_lock: int | list[int] | None = None,
                     observer: bool = False, heartbeat_s: float | None = None,
                     features: list[str] | None = None,
                     max_events: int | None = None, auth: str | None = None) -> dict[str, Any]:
        fields = session_open_fields(client, pid_lock, observer, heartbeat_s, features,
                                     max_events, auth)
        reply = self.request("session.open", **fields)
        self.session = reply["session"]
        self.session_id = self.session["id"]
        return self.session

    def close_session(self) -> None:
        if self.session_id is not None:
            try:
                self.request("session.close")
            finally:
                self.session_id = self.session = None

    def subscribe(self, categories: str | list[str] | None = None,
                  pids: int | list[int] | None = None,
                  since_seq: int | None = None,
                  coalesce_ms: int | None = None,
                  credit: int | None = None) -> dict[str, Any]:
        """Events of `categories` from `pids` (both: all but the high-rate ones), after
        `since_seq` first; with `coalesce_ms` a task's consecutive stdout/stderr writes
        come as one event, held at most that long for more; with `credit` at most that
        many events arrive until `ack` acknowledges some (docs/protocol.md)."""
        fields = subscribe_fields(categories, pids, since_seq, coalesce_ms, credit)
        return self.request("events.subscribe", **fields)["events"]

    def ack(self, seq: int) -> dict[str, Any]:
        """Acknowledge every event up to `seq` (`events.ack`): the subscription's stats."""
        return self.request("events.ack", seq=seq)["events"]

    def _keepalive_if_due(self) -> None:
        if self.session is None:
            return
        if time.monotonic() - self._last_sent >= self.session["heartbeat_s"] / 2:
            self._ignore.add(self._send("session.keepalive", {}))

    # ------------------------------------------------------------------ events

    def next_event(self, timeout: float | None = None) -> dict[str, Any] | None:
        """The next event (queued or read now), or None after `timeout` seconds."""
        if self._events:
            return self._events.popleft()
        lines = self._lines
        while lines:            # received already: no clock read, no keepalive check (a
            message = decode(lines.popleft())       # subscriber takes ~10^5 a second;
            if is_event(message):                   # the next recv checks the keepalive)
                return message
            self._ignore.discard(message.get("id"))
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            self._keepalive_if_due()
            message = self._read(deadline, tick=self._tick())
            if message is None:
                if deadline is not None and time.monotonic() >= deadline:
                    return None
                continue
            if is_event(message):
                return message
            self._ignore.discard(message.get("id"))

    def events(self, timeout: float | None = None) -> Iterator[dict[str, Any]]:
        """Events as they come; stops after `timeout` seconds without one."""
        while (event := self.next_event(timeout)) is not None:
            yield event

    def drain_events(self) -> list[dict[str, Any]]:
        """Events already received, without waiting."""
        events = list(self._events)
        self._events.clear()
        return events

    def _queue(self, event: dict[str, Any]) -> None:
        if len(self._events) >= self._max_events:
            self._events.popleft()
            self.events_dropped += 1
        self._events.append(event)

    def _tick(self) -> float | None:
        """How long a read may block before a keepalive is due."""
        if self.session is None:
            return None
        return max(0.05, self.session["heartbeat_s"] / 2 - (time.monotonic() - self._last_sent))

    # ------------------------------------------------------------------ socket

    def _read(self, deadline: float | None, tick: float | None = None) -> dict[str, Any] | None:
        """The next line as a message, or None when `deadline` (or `tick`) passes."""
        if tick is not None:
            tick_at = time.monotonic() + tick
            deadline = tick_at if deadline is None else min(deadline, tick_at)
        while True:
            if self._lines:
                return decode(self._lines.popleft())
            wait = None if deadline is None else deadline - time.monotonic()
            if wait is not None and wait <= 0:
                return None
            try:
                if self._poll is None:
                    if wait is None:
                        if self._rcvtimeo != 0.0:
                            self._kernel_wait(None)
                    elif not self._rcvtimeo - _TIMEOUT_STEP < wait <= self._rcvtimeo:
                        self._kernel_wait(wait)      # (already so: the same timeout again)
                elif not self._poll(wait):
                    continue                         # the wait is over: looked at above
                chunk = self._sock.recv(_READ)
            except BlockingIOError:                 # timed out, or woken for nothing
                continue
            except (OSError, ValueError) as error:   # ValueError: polled after close()
                raise ConnectionClosed(f"connection to the executive failed: {error}") from None
            if not chunk:
                raise ConnectionClosed("the executive closed the connection")
            if not self._buf and chunk.find(b"\n") == len(chunk) - 1:
                return decode(chunk)                 # the common case: one whole line
            self._received(chunk)

    def _received(self, chunk: bytes) -> None:
        """Add what arrived: every complete line at once, the rest kept for the next."""
        self._buf += chunk
        if b"\n" in chunk:
            lines = self._buf.split(b"\n")
            self._buf = lines.pop()
            self._lines.extend(lines)

    def _spin(self) -> None:
        """Look for the reply for up to `spin_s`, yielding the CPU between looks, before
        `_read` sleeps for it.  When the executive runs on another CPU, a client asleep
        in `recv` is woken by an interrupt into an idle CPU, which on a virtual machine
        costs more than the request itself: a `step` took 0.10-0.12 ms that way and
        0.044 ms with this (benchmarks/README.md).  A client held to one CPU does not
        look: the executive can only answer once the client gives the CPU up (looking
        cost 0.051 ms a step there against 0.050 ms without)."""
        sock, chunk = self._sock, b""
        until = time.perf_counter() + self._spin_s
        while True:
            try:
                chunk = sock.recv(_READ, socket.MSG_DONTWAIT)
                break
            except BlockingIOError:
                if time.perf_counter() >= until:
                    return
                os.sched_yield()
            except OSError:
                return                     # _read reports it
        if chunk:                          # (closed: _read reports it)
            self._received(chunk)

    def _kernel_wait(self, wait: float | None) -> None:
        """Have the next `recv` give up after about `wait` seconds (None: never).  The
        kernel's timeout is rounded up to `_TIMEOUT_STEP`, so the same request timeout
        sets it once, not per request; a `recv` that gives up early is simply retried."""
        wanted = 0.0 if wait is None else math.ceil(wait / _TIMEOUT_STEP) * _TIMEOUT_STEP
        if wanted != self._rcvtimeo:
            self._sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVTIMEO, _timeval(wanted))
            self._rcvtimeo = wanted


def _other_cpus() -> bool:
    """Whether this process may run on more than one CPU (where unknown: yes)."""
    return not hasattr(os, "sched_getaffinity") or len(os.sched_getaffinity(0)) > 1


def _timeval(seconds: float) -> bytes:
    micros = round(seconds * 1e6)
    return struct.pack("@ll", micros // 1_000_000, micros % 1_000_000)


def _writable(sock: socket.socket, seconds: float) -> bool:
    """Whether `sock` can take more within `seconds`."""
    return _poller(sock, writing=True)(seconds)


def _poller(sock: socket.socket, writing: bool = False) -> Callable[[float | None], bool]:
    """`wait(seconds or None) -> ready?` for one socket, to read (or write): `poll` where
    there is one (select cannot watch a descriptor past FD_SETSIZE), registered once,
    `select` elsewhere (Windows)."""
    if hasattr(select, "poll"):
        poll = select.poll()
        poll.register(sock, select.POLLOUT if writing else select.POLLIN)

        def wait(seconds: float | None) -> bool:
            return bool(poll.poll(None if seconds is None else max(0, math.ceil(seconds * 1000))))
        return wait

    def wait_select(seconds: float | None) -> bool:
        ready = select.select([] if writing else [sock], [sock] if writing else [], [], seconds)
        return bool(ready[1] if writing else ready[0])
    return wait_select


install(Client, asynchronous=False)      # frame_variables, evaluate, ... (helpers.py)
