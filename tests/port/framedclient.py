"""A minimal framed protocol client for the C executive's tests (docs/wire.md): hello,
requests with seq numbers, replies and events, over a socket or a pty. The client
library's framed transport (hsx.client) is the real one; this one stays small and local
so that the tests can also send what a correct client never would (`send_request`,
`send_raw`). `call` and `request` do what hsx.client does around a board: the request in
its canonical form (hsx.client.link.canonical, a refusal as an error reply), the reply
with `version`, the request's `id` and an error's words; byte strings stay bytes; the
board's numbered keys and words are named (hsx.link.keys)."""
from __future__ import annotations

import os
import select
import socket
import time
from typing import Any

import cbor2

from hsx.link.frames import BadFrame, FrameDecoder, encode_frame
from hsx.link import keys
from hsx.client.link.canonical import board_request, explain
from hsx.client.link.payload import decode_hello, encode_request
from hsx.link.names import decode_names
from hsx.server.errors import RequestError

DEADLINE = 30.0                  # seconds: generous, for a loaded machine


class ReplyError(Exception):
    def __init__(self, reply: dict[str, Any]) -> None:
        super().__init__(f"{reply.get('error')}: {reply.get('message')}")
        self.reply = reply
        self.code = reply.get("error")


class FramedClient:
    """One host on the link. `frames` keeps what arrived and was not asked for yet."""

    def __init__(self, sock: socket.socket | None = None, fd: int | None = None) -> None:
        self.sock, self.fd = sock, fd
        self.decoder = FrameDecoder()
        self.inbox: list[tuple[bytes, int, Any]] = []      # (kind, seq, decoded payload)
        self.raw: dict[int, bytes] = {}                     # seq -> the last reply's bytes
        self.raw_events: list[bytes] = []                   # the events' bytes, as sent
        self.damaged = 0
        self.seq = 0
        self.hello_info: dict[str, Any] | None = None

    @classmethod
    def tcp(cls, host: str, port: int, receive_buffer: int | None = None) -> "FramedClient":
        """`receive_buffer`: a small one makes a host that stops reading felt at once."""
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        if receive_buffer:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
        sock.settimeout(DEADLINE)
        sock.connect((host, port))
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        return cls(sock=sock)

    def close(self) -> None:
        if self.sock is not None:
            self.sock.close()
        if self.fd is not None:
            os.close(self.fd)

    def __enter__(self) -> "FramedClient":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------ bytes
    def send_raw(self, data: bytes) -> None:
        if self.sock is not None:
            self.sock.sendall(data)
        else:
            view = memoryview(data)
            while view:
                view = view[os.write(self.fd, view):]

    def _read(self, timeout: float) -> bytes:
        source = self.sock if self.sock is not None else self.fd
        ready, _, _ = select.select([source], [], [], max(timeout, 0))
        if not ready:
            return b""
        data = self.sock.recv(65536) if self.sock is not None else os.read(self.fd, 65536)
        if not data:
            raise ConnectionError("the board closed the link")
        return data

    def pump(self, timeout: float) -> None:
        """Read what arrives within `timeout` into the inbox."""
        for got in self.decoder.feed(self._read(timeout)):
            if isinstance(got, BadFrame):
                self.damaged += 1
                continue
            kind, seq, payload = got.kind.encode(), got.seq, got.payload
            if kind == b"R":
                self.raw[seq] = payload
            elif kind == b"E":
                self.raw_events.append(payload)
            decode = decode_hello if kind == b"H" else decode_names
            self.inbox.append((kind, seq, decode(payload) if payload else None))

    def wait_for(self, match, deadline: float = DEADLINE) -> tuple[bytes, int, Any]:
        end = time.monotonic() + deadline
        while True:
            for i, item in enumerate(self.inbox):
                if match(*item):
                    return self.inbox.pop(i)
            left = end - time.monotonic()
            if left <= 0:
                raise TimeoutError("no such frame from the board")
            self.pump(min(left, 0.5))

    # ------------------------------------------------------------------ protocol
    def hello(self) -> dict[str, Any]:
        self.send_raw(encode_frame("H", 0, lead=True))
        _, _, info = self.wait_for(lambda k, s, p: k == b"H")
        self.hello_info = info
        return info

    def next_seq(self) -> int:
        self.seq = self.seq % 255 + 1
        return self.seq

    def send_request(self, fields: dict[str, Any], seq: int | None = None) -> int:
        """`fields` as they are (no checks, no conversions), keys by their numbers; a
        command the table does not have goes as a number that is not a command."""
        seq = self.next_seq() if seq is None else seq
        numbered = {keys.NUMBERS[k]: v for k, v in fields.items() if k in keys.NUMBERS}
        if "cmd" in fields:
            numbered[keys.NUMBERS["cmd"]] = (keys.command_number(fields["cmd"])
                                             or keys.NUMBERS["status"])
        self.send_raw(encode_frame("Q", seq, cbor2.dumps(numbered)))
        return seq

    def reply(self, seq: int, deadline: float = DEADLINE) -> tuple[bytes, Any]:
        """The R (or N) frame for `seq`."""
        kind, _, payload = self.wait_for(lambda k, s, p: s == seq and k in (b"R", b"N"), deadline)
        return kind, payload

    def call(self, cmd: str, **fields: Any) -> dict[str, Any]:
        """The reply to one request (an error reply too), as hsx.client gives it."""
        ident = {"id": fields["id"]} if "id" in fields else {}
        try:
            canonical = board_request({"cmd": cmd, **fields})
        except RequestError as error:
            return {"version": 1, "status": "error", **error.reply(), **ident}
        seq = self.next_seq()
        self.send_raw(encode_frame("Q", seq, encode_request(canonical)))
        kind, payload = self.reply(seq)
        assert kind == b"R", payload
        return {"version": 1, **explain(payload, canonical, self.hello_info), **ident}

    def request(self, cmd: str, **fields: Any) -> dict[str, Any]:
        """An ok reply, or ReplyError."""
        reply = self.call(cmd, **fields)
        if reply.get("status") != "ok":
            raise ReplyError(reply)
        return reply

    def load(self, image: bytes, **fields: Any) -> dict[str, Any]:
        """A streamed load (load.begin, load.write chunks that fit max_frame, load.end),
        one request in flight at a time, as the window of a small board allows."""
        chunk = (self.hello_info or self.hello())["max_frame"] - 64
        stream = self.request("load.begin", **({"name": fields["name"]} if "name" in fields else {}))["stream"]
        for start in range(0, len(image), chunk):
            self.request("load.write", stream=stream, data=image[start:start + chunk])
        return self.request("load.end", stream=stream, paused=fields.get("paused", False))

    def events(self) -> list[dict[str, Any]]:
        """The events that arrived so far, in order."""
        got = [p for k, s, p in self.inbox if k == b"E"]
        self.inbox = [item for item in self.inbox if item[0] != b"E"]
        return got

    def wait_event(self, match, deadline: float = DEADLINE) -> dict[str, Any]:
        _, _, event = self.wait_for(lambda k, s, p: k == b"E" and match(p), deadline)
        return event
