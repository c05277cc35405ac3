"""One client connection: lines in, replies and events out, each at its own pace.

Requests on a connection are handled strictly in order (so clients that do not send
`id`s can match replies FIFO).  A reply is written as soon as it is ready; queued events
follow whenever the socket can take them.  Nothing one client does can stall another:

* writes go to this connection's transport buffer only; when the client stops reading
  and the buffer passes its high-water mark, events stay in the subscription's bounded
  queue (where they are dropped or back-pressure the clock, see `subscriptions`) and the
  connection stops reading requests until the client catches up;
* an oversized line is discarded as it streams in (`framing.LineSplitter`);
* a client that vanishes mid-request just has its reply thrown away.

A client that sends its next request as soon as it has a reply (a script stepping in a
loop, an adapter walking the stack) gets it answered without the executive going to
sleep in between: when nothing else waits for the loop, the connection looks for the
next request for up to `SPIN_S` (yielding the CPU between looks) before returning to
the loop.  Being woken on an idle CPU costs a virtual machine more than a `step` itself
(a `step` round trip: 0.046-0.047 ms without, 0.031 ms with; benchmarks/README.md).
Only a connection whose last request came that quickly looks, and only with a CPU to
spare.
"""
from __future__ import annotations

import asyncio
import os
import socket
import threading
import time
from collections import deque
from typing import TYPE_CHECKING, Any

from .framing import TOO_LONG, LineSplitter, encode
from .subscriptions import ReadySubscriptions

if TYPE_CHECKING:
    from .context import ServerContext
    from .subscriptions import Subscription

WRITE_HIGH_WATER = 256 * 1024
WRITE_LOW_WATER = 64 * 1024
EVENTS_PER_WRITE = 512
MAX_QUEUED_LINES = 64           # stop reading while this many requests wait their turn
READ_BUFFER = 64 * 1024         # bytes read at a time, per connection
SPIN_S = 0.0002                 # how long an idle executive looks for the next request


class Connection(asyncio.BufferedProtocol):
    """Reads into one buffer of its own (`get_buffer`): with asyncio's loop a plain
    Protocol gets each read in a fresh 256 KiB bytes object, which glibc maps and unmaps
    per request (three system calls and a page fault for a 50-byte `step`)."""

    def __init__(self, server: ServerContext) -> None:
        self.server = server
        self._read_buffer = memoryview(bytearray(READ_BUFFER))
        self.transport: asyncio.Transport | None = None
        self.peer = "?"
        self.peer_host = "?"                         # the address, for auth rate limits
        self.authenticated = server.token is None
        self.auth_failures = 0
        self.closed = False
        self.mailbox_handles: set[int] = set()       # host handles this client opened
        self.load_streams: set[int] = set()          # streamed loads in progress
        self._splitter = LineSplitter(server.max_line)
        self._lines: deque[bytes | object] = deque()
        self.busy = False                            # an async handler is running
        self._write_paused = False
        self._read_paused_for: set[str] = set()
        self._flush_pending = False
        self._ready = ReadySubscriptions(self._schedule_flush)   # with events to write
        self._may_spin = _spare_cpu()                # may look for the next request
        self._peek: socket.socket | None = None      # a duplicate of the socket, to look
        self._handled_at = -1.0                      # when what it last read was handled

    # ------------------------------------------------------------------ asyncio callbacks

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport        # type: ignore[assignment]  (uvloop's transport
                                          # is not an asyncio.Transport subclass)
        limit = self.server.config.write_buffer
        if limit:           # bound what a stalled client can make us hold, OS buffer included
            sock = transport.get_extra_info("socket")
            if sock is not None:
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, limit)
            transport.set_write_buffer_limits(high=limit, low=limit // 4)
        else:
            transport.set_write_buffer_limits(high=WRITE_HIGH_WATER, low=WRITE_LOW_WATER)
        peer = transport.get_extra_info("peername")
        self.peer = f"{peer[0]}:{peer[1]}" if isinstance(peer, tuple) else str(peer)
        self.peer_host = str(peer[0]) if isinstance(peer, tuple) else str(peer)
        self.server.connection_opened(self)

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = True
        self._lines.clear()
        self._ready.close()
        if self._peek is not None:
            self._peek.close()
        self.server.connection_closed(self)

    def get_buffer(self, sizehint: int) -> memoryview:
        return self._read_buffer

    def buffer_updated(self, nbytes: int) -> None:
        looking = self._may_spin
        quick = looking and time.perf_counter() - self._handled_at < SPIN_S
        self.data_received(self._read_buffer[:nbytes].tobytes())
        if not looking:
            return
        self._handled_at = time.perf_counter()
        if (quick and not self.busy and not self._lines and not self._flush_pending
                and not self._write_paused and not self.closed and self.server.clock.idle()):
            self._look_for_next_request()

    def _look_for_next_request(self) -> None:
        """Wait up to SPIN_S for more to read (without reading it: the loop does, at
        once, as it finds the socket readable)."""
        peek = self._peek
        if peek is None:
            peek = self._peek = _duplicate(self.transport)
            if peek is None:
                self._may_spin = False
                return
        until = self._handled_at + SPIN_S
        while True:
            try:
                peek.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT)
                return                    # (b"": closed, which the loop finds too)
            except BlockingIOError:
                if time.perf_counter() >= until:
                    return
                os.sched_yield()
            except OSError:
                return

    def data_received(self, data: bytes) -> None:
        if (not self._lines and not self.busy and not self._write_paused and not self.closed
                and (line := self._splitter.whole_line(data)) is not None):
            self._answer(line)                # one request, answered here and now
            return
        for line in self._splitter.feed(data):
            self._lines.append(line)
        self._process()

    def pause_writing(self) -> None:
        self._write_paused = True
        self._pause_reading("write")

    def resume_writing(self) -> None:
        self._write_paused = False
        self._resume_reading("write")
        self._schedule_flush()
        self._process()

    # ------------------------------------------------------------------ requests

    def _process(self) -> None:
        while self._lines and not self.busy and not self._write_paused and not self.closed:
            line = self._lines.popleft()
            if line is TOO_LONG:
                self.send(self.server.line_too_long())
                continue
            assert isinstance(line, bytes)
            self._answer(line)
        if len(self._lines) >= MAX_QUEUED_LINES:
            self._pause_reading("backlog")
        else:
            self._resume_reading("backlog")

    def _answer(self, line: bytes) -> None:
        """Handle one request line: its reply is written before this returns, unless
        the command runs on (then `busy` holds the lines behind it until it ends)."""
        if not line.strip():
            return
        try:
            outcome = self.server.handle_line(self, line)
        except Exception as error:       # a bug: answer it and keep the connection
            outcome = self.server.internal_failure("request handling", error)
        if isinstance(outcome, dict):
            self.send(outcome)
        else:
            self.busy = True
            asyncio.ensure_future(self._finish(outcome))

    async def _finish(self, pending: Any) -> None:
        try:
            self.send(await pending)
        finally:
            self.busy = False
            self._process()

    # ------------------------------------------------------------------ output

    def send(self, message: dict[str, Any]) -> None:
        """Write one reply now (never dropped while the client is connected)."""
        if self.closed or self.transport is None or self.transport.is_closing():
            return
        self.transport.write(encode(message))

    def events_ready(self, subscription: Subscription) -> None:
        self._ready.add(subscription)
        self._schedule_flush()

    def _schedule_flush(self) -> None:
        if not self._flush_pending and not self._write_paused and not self.closed:
            self._flush_pending = True
            asyncio.get_running_loop().call_soon(self.flush_events)

    def flush_events(self) -> None:
        self._flush_pending = False
        if self.closed or self.transport is None or self.transport.is_closing():
            return
        for sub in self._ready.now():
            while not self._write_paused and (lines := sub.take(EVENTS_PER_WRITE)):
                self.transport.write(b"".join(lines))
            if self._write_paused:
                return
            self._ready.drained(sub)

    def close(self) -> None:
        if self.transport is not None and not self.transport.is_closing():
            self.transport.close()

    def abort(self) -> None:
        if self.transport is not None:
            self.transport.abort()

    # ------------------------------------------------------------------ read throttling

    def _pause_reading(self, reason: str) -> None:
        if not self._read_paused_for and self.transport is not None and not self.closed:
            self.transport.pause_reading()
        self._read_paused_for.add(reason)

    def _resume_reading(self, reason: str) -> None:
        if reason not in self._read_paused_for:
            return
        self._read_paused_for.discard(reason)
        if not self._read_paused_for and self.transport is not None and not self.closed:
            self.transport.resume_reading()


def _spare_cpu() -> bool:
    """Whether looking for a request can pay: the client can run meanwhile on another
    CPU (on one CPU each look would only take turns away from it, and an executive
    embedded in a program (its loop not on the main thread) would hold the GIL a client
    thread of that program needs to send the request)."""
    if not (hasattr(socket, "MSG_DONTWAIT") and hasattr(os, "sched_yield")
            and hasattr(os, "sched_getaffinity")):
        return False
    return (threading.current_thread() is threading.main_thread()
            and len(os.sched_getaffinity(0)) > 1)


def _duplicate(transport: asyncio.BaseTransport | None) -> socket.socket | None:
    """A second handle on the transport's socket (the transport's own refuses `recv`)."""
    sock = transport.get_extra_info("socket") if transport is not None else None
    if sock is None:
        return None
    try:
        return socket.fromfd(sock.fileno(), sock.family, sock.type)
    except (OSError, ValueError):
        return None
