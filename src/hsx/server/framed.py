"""Protocol v1 over the framed link (docs/wire.md), served by hsx execd: the link a board
speaks, so `hsx shell --connect`, `hsx dbg --connect`, the DAP's `connect` and the
gateway reach the Python executive over a serial line, a pty or a raw socket as they
reach a board.

A `FramedPeer` is one host's end of such a link.  Its frames come in through `feed`; a
request is handled by the server as a connection's line is (the same dispatcher,
sessions, locks and limits); its reply goes out as an `R` frame, events as `E` frames,
what could not be read as an `N`.  A retried request (same seq) is answered with the
kept reply and not run again.  An `H` from the host is a new host: what the previous
one held on this link (its sessions, host mailbox handles, streamed loads) is
released, as when a TCP client disconnects.

Requests arrive as a board takes them (hsx.client.link.canonical): `to_v1` turns back
the few fields a board spells differently from hsx execd.  Replies and events are
protocol v1's dicts, their keys numbered where the key table has them.
"""
from __future__ import annotations

import asyncio
import base64
import json
import random
from collections import deque
from typing import TYPE_CHECKING, Any, Callable

import cbor2

from hsx import __version__
from hsx.link import keys
from hsx.link.frames import BadFrame, Frame, FrameDecoder, encode_frame
from hsx.link.names import PayloadError, decode_request, numbered

from .dmesg import LEVELS
from .subscriptions import ReadySubscriptions

if TYPE_CHECKING:
    from .context import ServerContext
    from .subscriptions import Subscription

MAX_FRAME = 4096            # the longest frame body taken (a streamed load's chunks fit)
WINDOW = 2 * MAX_FRAME      # bytes the host may send ahead of their replies
EVENTS_PER_FLUSH = 64
_MAILBOX_MODES = {1: "r", 2: "w", 3: "rw"}


class FramedPeer:
    """One host on a framed link; to the server it is a connection like any other.
    `write(data)` sends bytes to the host, `hang_up()` ends the link (a socket) or
    leaves it open for the next host (a serial line)."""

    def __init__(self, server: ServerContext, write: Callable[[bytes], None],
                 hang_up: Callable[[], None], peer: str, boot: int) -> None:
        self.server = server
        self._write, self._hang_up = write, hang_up
        self.peer = self.peer_host = peer
        self.boot = boot
        self.authenticated = server.token is None
        self.auth_failures = 0
        self.closed = False
        self.mailbox_handles: set[int] = set()
        self.load_streams: set[int] = set()
        self.busy = False                        # a request's async handler is running
        self._decoder = FrameDecoder(MAX_FRAME)
        self._waiting: deque[Frame | BadFrame] = deque()   # frames behind a busy request
        self._running: int | None = None         # the seq of the request being handled
        self._last: tuple[int, bytes] | None = None         # (seq, its reply frame)
        self._ready = ReadySubscriptions(self._schedule_flush)   # with events to send
        self._flush_pending = False
        server.connection_opened(self)

    # ------------------------------------------------------------------ bytes in

    def feed(self, data: bytes) -> None:
        for frame in self._decoder.feed(data):
            self._waiting.append(frame)
        self._process()

    def _process(self) -> None:
        while self._waiting and not self.busy and not self.closed:
            self._take(self._waiting.popleft())

    def _take(self, frame: Frame | BadFrame) -> None:
        if isinstance(frame, BadFrame):
            self._nack(frame.error, frame.seq)
        elif frame.kind == "H":
            self._new_host()
        elif frame.kind != "Q" or frame.seq == 0:
            self._nack("bad_frame", frame.seq)
        elif self._last is not None and self._last[0] == frame.seq:
            self._send(self._last[1])            # a retry: its reply again, not a rerun
        else:
            self._request(frame)

    def _new_host(self) -> None:
        """Whoever held the link before is gone: release what it had, say hello."""
        self.server.connection_closed(self)
        self.mailbox_handles.clear()
        self.load_streams.clear()
        self.authenticated = self.server.token is None
        self._last = None
        self.server.connection_opened(self)
        self._send(self.hello_frame())

    def hello_frame(self) -> bytes:
        profile = self.server.kernel.profile
        hello = {"proto": 1, "window": WINDOW, "max_frame": MAX_FRAME,
                 "variant": profile.name, "features": sorted(profile.features),
                 "boot": self.boot, "board": "hsx-execd", "hsx_version": __version__}
        return encode_frame("H", 0, cbor2.dumps([keys.DIGEST, numbered(hello)]), lead=True)

    def _request(self, frame: Frame) -> None:
        try:
            request = to_v1(decode_request(frame.payload))
        except PayloadError:
            self._nack("bad_payload", frame.seq)
            return
        self._running = frame.seq
        try:
            outcome = self.server.handle_line(self, json.dumps(request).encode())
        except Exception as error:       # a bug: answer it and keep the link
            outcome = self.server.internal_failure("request handling", error)
        if isinstance(outcome, dict):
            self._reply(frame.seq, outcome)
            return
        self.busy = True
        asyncio.ensure_future(self._finish(frame.seq, outcome))

    async def _finish(self, seq: int, pending: Any) -> None:
        try:
            self._reply(seq, await pending)
        finally:
            self.busy = False
            self._process()

    # ------------------------------------------------------------------ bytes out

    def _reply(self, seq: int, reply: dict[str, Any]) -> None:
        self._running = None
        body = {k: v for k, v in reply.items() if k not in ("version", "id")}
        wire = encode_frame("R", seq, cbor2.dumps(numbered(body)))
        self._last = (seq, wire)
        self._send(wire)

    def _nack(self, error: str, seq: int) -> None:
        self._send(encode_frame("N", seq, cbor2.dumps(numbered({"error": error}))))

    def _send(self, data: bytes) -> None:
        if not self.closed:
            self._write(data)

    def send(self, message: dict[str, Any]) -> None:
        """A message the server sends unasked (a refusal before any request): an event
        frame, the only kind a host takes without a request."""
        self._send(encode_frame("E", 0, cbor2.dumps(numbered(message))))

    def events_ready(self, subscription: Subscription) -> None:
        self._ready.add(subscription)
        self._schedule_flush()

    def _schedule_flush(self) -> None:
        if not self._flush_pending and not self.closed:
            self._flush_pending = True
            asyncio.get_running_loop().call_soon(self.flush_events)

    def flush_events(self) -> None:
        self._flush_pending = False
        for sub in self._ready.now():
            while not self.closed and (chunks := sub.take(EVENTS_PER_FLUSH)):
                for chunk in chunks:
                    for line in chunk.splitlines():
                        self.send(json.loads(line))
            self._ready.drained(sub)

    def close(self) -> None:
        """End the link (the server shuts down, or a client is refused)."""
        if not self.closed:
            self._end()
            self._hang_up()

    abort = close

    def lost(self) -> None:
        """The link went away under us (the socket closed)."""
        if not self.closed:
            self._end()

    def _end(self) -> None:
        self.closed = True
        self._ready.close()
        self.server.connection_closed(self)


def new_boot() -> int:
    """A number for `boot` that differs from the last run's (wire.md: it changes at every
    reset, so a host tells a restarted executive from one that lost a frame)."""
    return random.randrange(1, 1 << 31)


def to_v1(request: dict[str, Any]) -> dict[str, Any]:
    """A request as a board takes it -> as hsx execd's dispatcher takes it."""
    cmd = str(request.get("cmd", "")).lower()
    out = dict(request)
    data = out.get("data")
    if isinstance(data, (bytes, bytearray)):
        if cmd == "load.write":
            out["data"] = base64.b64encode(data).decode()
        elif cmd == "poke":
            out["data"] = bytes(data).hex()
        else:
            del out["data"]
            out["data_hex"] = bytes(data).hex()
    if isinstance(out.get("image"), (bytes, bytearray)):
        out["image"] = base64.b64encode(out["image"]).decode()
    convert = _FROM_A_BOARD.get(cmd)
    return convert(out) if convert is not None else out


def _session_open(fields: dict[str, Any]) -> dict[str, Any]:
    if isinstance(fields.get("heartbeat_ms"), int):
        fields["heartbeat_s"] = fields.pop("heartbeat_ms") / 1000
    return fields


def _pids(fields: dict[str, Any]) -> dict[str, Any]:
    if "pid_lock" in fields:
        fields["pid"] = fields.pop("pid_lock")
    return fields


def _stdio(fields: dict[str, Any]) -> dict[str, Any]:
    if "pids" in fields:
        fields["pid"] = fields.pop("pids")
    return fields


def _dmesg(fields: dict[str, Any]) -> dict[str, Any]:
    level = fields.get("level")
    if isinstance(level, int) and 0 <= level < len(LEVELS):
        fields["level"] = LEVELS[level]
    return fields


def _mailbox_open(fields: dict[str, Any]) -> dict[str, Any]:
    flags = fields.pop("flags", None)
    if isinstance(flags, int):
        fields["tap"] = bool(flags & 4)
        fields["mode"] = _MAILBOX_MODES.get(flags & 3, "rw")
    return fields


_FROM_A_BOARD = {"session.open": _session_open, "session.lock": _pids,
                 "session.unlock": _pids, "stdio": _stdio, "dmesg": _dmesg,
                 "mailbox.open": _mailbox_open}
