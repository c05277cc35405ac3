"""The host's side of the byte-stream link (docs/wire.md), without any I/O.

`LinkProtocol` numbers requests, frames them, keeps the device's window, retries, and
turns what arrives into outcomes: `Reply`, `Event`, `Failed` and `Reset`.  The sync and
asyncio clients drive it the same way:

    link.submit(key, message)         # queue a request; link.output() has bytes to write
    link.received(data, now)          # bytes from the device -> outcomes
    link.expire(now)                  # at link.deadline(): retries, or Failed link_timeout

One request is unanswered at a time.  The device keeps only the last request's seq and
reply to answer a retry without running it again (wire.md, "At most once"); with two
requests in flight, a retried first one would run twice.  So requests wait in order,
and the window bounds each frame: a request whose frame is larger than the window (or
`max_frame`) is refused at once (`frame_too_large`), it could never be sent.
"""
from __future__ import annotations

import random
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any, Callable, Hashable, Union

from hsx.server.errors import RequestError

from .canonical import board_request, explain
from hsx.link.frames import BadFrame, Frame, FrameDecoder, encode_frame
from .payload import PayloadError, TableMismatch, decode_hello, decode_message, encode_request

ATTEMPTS = 4                   # the first send and 3 retries (wire.md)
HELLO_FIELDS = ("proto", "window", "max_frame", "variant", "features", "boot", "board",
                "hsx_version")


@dataclass(frozen=True)
class Reply:
    key: Hashable
    message: dict[str, Any]


@dataclass(frozen=True)
class Event:
    message: dict[str, Any]


@dataclass(frozen=True)
class Failed:
    """A request that will get no reply: `link_timeout`, `board_reset`, `frame_too_large`
    or `bad_payload` (the device's reply was unreadable)."""

    key: Hashable
    code: str
    message: str


@dataclass(frozen=True)
class Reset:
    """The device said hello with a new `boot`: it has reset; what it held is gone."""

    hello: dict[str, Any]


Outcome = Union[Reply, Event, Failed, Reset]


@dataclass
class _Request:
    key: Hashable
    payload: bytes
    message: dict[str, Any] = field(default_factory=dict)   # as the board got it
    seq: int = 0
    wire: bytes = b""
    attempts: int = 0
    deadline: float = 0.0


# what an N frame says of a request that sending again cannot help (wire.md)
_FINAL = {"reply_lost": "the request ran on the device, but its reply was lost: ask again "
                        "what you need to know",
          "too_long": "the device refused the request: its frame is longer than max_frame",
          "bad_payload": "the device could not read the request (not a CBOR map)"}


def _refusal(payload: bytes) -> tuple[str, str] | None:
    """(code, message) of an N frame that ends its request, else None (retry it)."""
    try:
        error = decode_message(payload).get("error")
    except PayloadError:
        return None
    if error not in _FINAL:
        return None
    return ("frame_too_large" if error == "too_long" else error), _FINAL[error]


@dataclass
class LinkProtocol:
    """`attempt_timeout(wire_bytes)`: how long to wait for a reply to a frame of that
    many bytes before sending it again."""

    attempt_timeout: Callable[[int], float]
    hello: dict[str, Any] | None = None
    refused: str | None = None          # why the device's hello could not be taken
    _decoder: FrameDecoder = field(default_factory=FrameDecoder)
    _queue: deque = field(default_factory=deque)
    _in_flight: _Request | None = None
    _out: bytearray = field(default_factory=bytearray)
    _seq: int = field(default_factory=lambda: random.randrange(1, 256))

    # -- what the clients call ------------------------------------------------------------

    def say_hello(self) -> None:
        """Ask the device who it is (an `H`, led by a 0x00 to end any partial frame)."""
        self._out += encode_frame("H", 0, lead=True)

    def submit(self, key: Hashable, message: dict[str, Any], now: float) -> list[Outcome]:
        """Queue a request; its reply comes back as `Reply(key, …)`.  A request the board
        would not take (its canonical form: canonical.py) is refused here, as hsx execd
        refuses it."""
        try:
            canonical = board_request(message)
            request = _Request(key, encode_request(canonical), canonical)
        except RequestError as error:
            return [Reply(key, {"version": 1, "status": "error", **error.reply()})]
        except Exception as error:      # bad hex/base64 (ProtocolError) and the like
            return [Failed(key, getattr(error, "code", "bad_argument"),
                           getattr(error, "message", str(error)))]
        self._queue.append(request)
        return self._send_next(now)

    def received(self, data: bytes, now: float) -> list[Outcome]:
        out: list[Outcome] = []
        for frame in self._decoder.feed(data):
            if isinstance(frame, BadFrame):
                continue                # a broken frame from the device: its retry comes
            out += self._frame(frame, now)
        return out

    def expire(self, now: float) -> list[Outcome]:
        """Retry the request whose reply is late, or fail it after the last attempt."""
        request = self._in_flight
        if request is None or now < request.deadline:
            return []
        if request.attempts >= ATTEMPTS:
            self._in_flight = None
            return [Failed(request.key, "link_timeout",
                           f"no reply from the device after {ATTEMPTS} attempts")
                    ] + self._send_next(now)
        self._transmit(request, now)
        return []

    def cancel(self, key: Hashable, now: float) -> list[Outcome]:
        """Forget a request nobody waits for any more (its reply, if it comes, is
        dropped as stale)."""
        if self._in_flight is not None and self._in_flight.key == key:
            self._in_flight = None
            return self._send_next(now)
        self._queue = deque(r for r in self._queue if r.key != key)
        return []

    def deadline(self) -> float | None:
        return self._in_flight.deadline if self._in_flight is not None else None

    def output(self) -> bytes:
        """Bytes to write to the device now (taken: the next call starts empty)."""
        data = bytes(self._out)
        self._out.clear()
        return data

    def fail_all(self, code: str, message: str) -> list[Failed]:
        """Every request waiting or unanswered fails (the link is gone, or reset)."""
        pending = ([self._in_flight] if self._in_flight is not None else []) + list(self._queue)
        self._in_flight = None
        self._queue.clear()
        return [Failed(r.key, code, message) for r in pending]

    @property
    def idle(self) -> bool:
        return self._in_flight is None and not self._queue

    # -- inside ---------------------------------------------------------------------------

    def _frame(self, frame: Frame, now: float) -> list[Outcome]:
        kind = frame.kind
        if kind == "R":
            request = self._in_flight
            if request is None or frame.seq != request.seq:
                return []               # a retry's second answer, or a stale one
            self._in_flight = None
            try:
                outcome: Outcome = Reply(request.key, explain(
                    {"version": 1, **decode_message(frame.payload)}, request.message, self.hello))
            except PayloadError as error:
                outcome = Failed(request.key, "bad_payload",
                                 f"the device's reply could not be read ({error})")
            return [outcome] + self._send_next(now)
        if kind == "E":
            try:
                event = decode_message(frame.payload)
            except PayloadError:
                return []
            if "ts" not in event:           # a board has no wall clock: when it arrived
                event["ts"] = time.time()
            return [Event(event)]
        if kind == "N":
            request = self._in_flight
            if request is not None and frame.seq in (0, request.seq):
                refusal = _refusal(frame.payload)
                if frame.seq == request.seq and refusal is not None:
                    self._in_flight = None      # sending it again would not help
                    return [Failed(request.key, *refusal)] + self._send_next(now)
                if request.attempts >= ATTEMPTS:
                    self._in_flight = None
                    return [Failed(request.key, "link_timeout", "the device could not take "
                                   f"the request after {ATTEMPTS} attempts")] + self._send_next(now)
                self._transmit(request, now)        # the same seq: at most once
            return []
        if kind == "H":
            return self._hello(frame, now)
        return []

    def _hello(self, frame: Frame, now: float) -> list[Outcome]:
        try:
            hello = decode_hello(frame.payload)
        except TableMismatch as error:
            self.refused = str(error)
            return []
        except PayloadError:
            return []
        previous, self.hello = self.hello, hello
        if previous is not None and hello.get("boot") != previous.get("boot"):
            return [*self.fail_all("board_reset", "the board was reset; the request may or "
                                   "may not have run"), Reset(hello)]
        return self._send_next(now)

    def _send_next(self, now: float) -> list[Outcome]:
        out: list[Outcome] = []
        while self._in_flight is None and self._queue and self.hello is not None:
            request = self._queue.popleft()
            self._seq = self._seq % 255 + 1
            request.seq = self._seq
            request.wire = encode_frame("Q", request.seq, request.payload)
            limit = self._limit()
            if len(request.wire) > limit:
                out.append(Failed(request.key, "frame_too_large",
                                  f"the request takes {len(request.wire)} bytes on the link; "
                                  f"the device takes frames of at most {limit}"))
                continue
            self._in_flight = request
            self._transmit(request, now)
        return out

    def _limit(self) -> int:
        """The largest frame on the wire the device can take: its window, and a body of
        at most `max_frame` (with COBS and the delimiter)."""
        hello = self.hello or {}
        window = int(hello.get("window") or 64)
        body = int(hello.get("max_frame") or 64)
        return min(window, body + body // 254 + 2)

    def _transmit(self, request: _Request, now: float) -> None:
        request.attempts += 1
        request.deadline = now + self.attempt_timeout(len(request.wire))
        self._out += request.wire
