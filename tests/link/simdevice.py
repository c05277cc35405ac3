"""A device's side of the framed link (docs/wire.md), for the client's tests.

`SimDevice` is the link layer of a board without any I/O: it decodes frames, answers
`H` with its hello, runs each request once (a retry with the same seq gets the
remembered reply again), answers broken frames with `N`, resets, and checks that the
host keeps within its window.  `handler(request) -> reply` does the commands.

`FakeDevice` serves a `SimDevice` over TCP in a thread (`socket://HOST:PORT`), with
`bridge_to(host, port)` as a handler that forwards every request to an `hsx execd`
(JSON) and its events back as `E` frames: a board whose executive is the Python one.
Hooks make it lose or corrupt what it sends, and reset.
"""
from __future__ import annotations

import selectors
import socket
import threading
import time
from typing import Any, Callable

import cbor2

from hsx.client import Client, ProtocolError
from hsx.link.frames import BadFrame, FrameDecoder, encode_frame
from hsx.link.names import decode_request
from hsx.server.framed import to_v1

Handler = Callable[[dict[str, Any]], dict[str, Any]]


class SimDevice:
    def __init__(self, handler: Handler, *, window: int = 600, max_frame: int = 512,
                 variant: str = "development", boot: int = 1) -> None:
        self.handler = handler
        self.window, self.max_frame, self.variant, self.boot = window, max_frame, variant, boot
        self.decoder = FrameDecoder(max_frame)
        self.last: tuple[int, bytes] | None = None      # (seq, reply frame)
        self.executed: list[tuple[int, dict[str, Any]]] = []
        self._pending = bytearray()        # received, not yet answered
        self.most_unanswered = 0
        self.overruns = 0

    def hello(self) -> dict[str, Any]:
        return {"proto": 1, "window": self.window, "max_frame": self.max_frame,
                "variant": self.variant, "features": [], "boot": self.boot,
                "board": "sim", "hsx_version": "0.1.0"}

    def hello_frame(self) -> bytes:
        return encode_frame("H", 0, cbor2.dumps(self.hello()), lead=True)

    def reset(self) -> bytes:
        """A reset: everything is forgotten; the new hello to send."""
        self.boot += 1
        self.last = None
        self._pending.clear()
        self.decoder = FrameDecoder(self.max_frame)
        return self.hello_frame()

    def event(self, message: dict[str, Any]) -> bytes:
        return encode_frame("E", 0, cbor2.dumps(message))

    def feed(self, data: bytes) -> bytes:
        """Bytes from the host -> bytes to send back.  Bytes wait in the receive buffer
        until their frame's delimiter arrives and the frame is answered; more of them
        than the window is an overrun by the host."""
        self._pending += data
        self.most_unanswered = max(self.most_unanswered, len(self._pending))
        if len(self._pending) > self.window:
            self.overruns += 1
        out = bytearray()
        while (end := self._pending.find(0)) >= 0:
            piece = bytes(self._pending[:end + 1])
            del self._pending[:end + 1]
            for frame in self.decoder.feed(piece):
                out += self._answer(frame)
        return bytes(out)

    def _answer(self, frame) -> bytes:
        if isinstance(frame, BadFrame):
            return self._nack(frame.error, frame.seq)
        if frame.kind == "H":
            self.last = None               # a new host starts afresh
            return self.hello_frame()
        if frame.kind != "Q":
            return self._nack("bad_frame", frame.seq)
        if self.last is not None and self.last[0] == frame.seq:
            return self.last[1]
        try:
            request = decode_request(frame.payload)
        except Exception:
            request = None
        if not isinstance(request, dict):
            return self._nack("bad_payload", frame.seq)
        self.executed.append((frame.seq, request))
        reply = encode_frame("R", frame.seq, cbor2.dumps(self.handler(request)))
        self.last = (frame.seq, reply)
        return reply

    @staticmethod
    def _nack(error: str, seq: int) -> bytes:
        return encode_frame("N", seq, cbor2.dumps({"error": error, "message": error}))


def ok(**fields: Any) -> dict[str, Any]:
    return {"status": "ok", **fields}


class FakeDevice:
    """A `SimDevice` on a TCP port, served by a thread; one host at a time."""

    def __init__(self, handler: Handler | None = None, **device: Any) -> None:
        self.device = SimDevice(handler or (lambda request: ok()), **device)
        self.lock = threading.RLock()
        self.drop_replies = 0              # answers to lose (the next N sends)
        self.fates: list[bool] = []        # per answer from now on: lose it?
        self.events_source: Callable[[], list[dict[str, Any]]] | None = None
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port = self._listener.getsockname()[1]
        self.url = f"socket://127.0.0.1:{self.port}"
        self._conn: socket.socket | None = None
        self._stop = False
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def close(self) -> None:
        self._stop = True
        self._thread.join(10)
        self._listener.close()

    def __enter__(self) -> FakeDevice:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def reset(self) -> None:
        """Reset the board now: a new hello goes out."""
        with self.lock:
            self._send(self.device.reset())

    def send_event(self, message: dict[str, Any]) -> None:
        with self.lock:
            self._send(self.device.event(message))

    def _send(self, data: bytes) -> None:
        if self._conn is not None and data:
            try:
                self._conn.sendall(data)
            except OSError:
                pass

    def _serve(self) -> None:
        selector = selectors.DefaultSelector()
        self._listener.setblocking(False)
        selector.register(self._listener, selectors.EVENT_READ)
        while not self._stop:
            for key, _ in selector.select(0.01):
                if key.fileobj is self._listener:
                    conn, _ = self._listener.accept()
                    if self._conn is not None:
                        selector.unregister(self._conn)
                        self._conn.close()
                    self._conn = conn
                    selector.register(conn, selectors.EVENT_READ)
                    continue
                try:
                    data = self._conn.recv(1 << 16)
                except OSError:
                    data = b""
                if not data:
                    selector.unregister(self._conn)
                    self._conn.close()
                    self._conn = None
                    continue
                with self.lock:
                    answer = self.device.feed(data)
                    if answer and self.drop_replies:
                        self.drop_replies -= 1
                        answer = b""
                    elif answer and self.fates and self.fates.pop(0):
                        answer = b""
                    self._send(answer)
            if self.events_source is not None:
                with self.lock:
                    for event in self.events_source():
                        self._send(self.device.event(event))
        selector.close()
        if self._conn is not None:
            self._conn.close()


# -- a board whose executive is hsx execd -----------------------------------------------

def _to_cbor(reply: dict[str, Any]) -> dict[str, Any]:
    """What a board sends: binary data as byte strings (peek's data)."""
    out = {k: v for k, v in reply.items() if k not in ("id", "version")}
    if isinstance(out.get("data"), str) and "space" in out:
        out["data"] = bytes.fromhex(out["data"])
    return out


# what a minimal board does not offer (hsx_proto.c: "needs the development or full variant")
DEVELOPMENT_COMMANDS = frozenset(
    "bp.set bp.add bp.clear bp.clear_all bp.enable bp.disable bp.list run.to stack.info "
    "watch.add watch.remove watch.list events.subscribe events.unsubscribe events.ack "
    "trace.on trace.off trace.status trace.records".split())


class Bridge:
    """A handler and an event source forwarding to `hsx execd` on host:port (each
    request turned back as execd's own framed link turns it, `to_v1`); a `minimal` one
    refuses the debugger's commands as a minimal board does."""

    def __init__(self, host: str, port: int, variant: str = "development") -> None:
        self.client = Client(host, port, timeout=10)
        self.variant = variant

    def handle(self, request: dict[str, Any]) -> dict[str, Any]:
        fields = to_v1(request)
        cmd = fields.pop("cmd", "")
        if self.variant == "minimal" and cmd.lower() in DEVELOPMENT_COMMANDS:
            return {"status": "error", "error": "unsupported", "variant_required": "development",
                    "message": f"{cmd} needs the development or full variant; this board "
                               "runs minimal"}
        try:
            return _to_cbor(self.client.request(cmd, **fields))
        except ProtocolError as error:
            return _to_cbor(error.reply or {"status": "error", "error": error.code,
                                            "message": error.message})

    def events(self) -> list[dict[str, Any]]:
        out = self.client.drain_events()
        while (event := self.client.next_event(0.002)) is not None:
            out.append(event)
        return out

    def close(self) -> None:
        self.client.close()


def bridged_device(host: str, port: int, **device: Any) -> FakeDevice:
    bridge = Bridge(host, port, device.get("variant", "development"))
    fake = FakeDevice(bridge.handle, **device)
    fake.events_source = bridge.events
    fake.bridge = bridge
    return fake


def wait_until(predicate: Callable[[], Any], timeout: float = 10.0) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.005)
    raise AssertionError("condition not met in time")


class PtyDevice:
    """A `SimDevice` behind a pseudo-terminal: `serial://<path>` reaches it."""

    def __init__(self, handler: Handler | None = None, **device: Any) -> None:
        import os
        import tty
        self.device = SimDevice(handler or (lambda request: ok()), **device)
        self._master, slave = os.openpty()
        tty.setraw(slave)
        self.path = os.ttyname(slave)
        self._slave = slave                 # kept open: the pty lives while it is
        self.url = f"serial://{self.path}?baud=115200"
        self._stop = False
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        import os
        import select
        while not self._stop:
            ready, _, _ = select.select([self._master], [], [], 0.01)
            if not ready:
                continue
            try:
                data = os.read(self._master, 4096)
            except OSError:
                return
            answer = self.device.feed(data)
            if answer:
                os.write(self._master, answer)

    def close(self) -> None:
        import os
        self._stop = True
        self._thread.join(10)
        os.close(self._master)
        os.close(self._slave)
