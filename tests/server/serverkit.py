"""Shared helpers for the server tests: MVASM programs, loading, waiting, raw sockets."""
from __future__ import annotations

import base64
import json
import socket
import time

import mvasmkit

from hsx.client import Client
from hsx.image.hxe import write_hxe
from hsx.toolchain.build import build_source

LOOP = """
.text
.entry start
start:
    LDI R1, 0
loop:
    ADDI R1, R1, 1
    JMP loop
"""

CHATTY = mvasmkit.CHATTY

ECHO = """
.bss
buf: .zero 32
.text
.entry start
start:
    LDI R1, 0
    LDI32 R2, buf
    LDI R3, 32
    SVC MOD=4, FN=1          ; read stdin (blocks) -> R0 bytes
    MOV R3, R0
    LDI R1, 1
    LDI32 R2, buf
    SVC MOD=4, FN=2          ; echo to stdout
    LDI R0, 0
    SVC MOD=1, FN=0
"""

SLEEPER = """
.text
.entry start
start:
    LDI R0, 30
    SVC MOD=6, FN=0          ; sleep 30 ms
    LDI R0, 5
    SVC MOD=1, FN=0
"""

BLINK = """
.text
.entry start
start:
    LDI R0, 1
    SVC MOD=6, FN=0          ; sleep 1 ms: two task_state events per turn
    JMP start
"""

FIVE_LINES = """
.data
msg: .ascii "line\\n"
.text
.entry start
start:
    LDI R4, 5
again:
    LDI R1, 1
    LDI32 R2, msg
    LDI R3, 5
    SVC MOD=4, FN=2
    ADDI R4, R4, -1
    CMPI R4, 0
    JNZ again
    LDI R0, 0
    SVC MOD=1, FN=0
"""


def profile_of(request) -> str:
    """The variant a test asks its executive to run (`@pytest.mark.profile("full")`)."""
    marker = request.node.get_closest_marker("profile")
    return marker.args[0] if marker else "development"


def image_bytes(source: str, name: str) -> bytes:
    return write_hxe(build_source(source, filename=f"{name}.mvasm", app_name=name))


def image_b64(source: str, name: str) -> str:
    return base64.b64encode(image_bytes(source, name)).decode()


def load(client: Client, source: str, name: str, **fields) -> int:
    return client.request("load", image=image_b64(source, name), **fields)["pid"]


def wait_for(predicate, timeout: float = 5.0, interval: float = 0.005):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    raise AssertionError("condition not met in time")


def state(client: Client, pid: int) -> str:
    return client.request("ps", pid=pid)["tasks"]["tasks"][0]["state"]


class Raw:
    """A bare socket, for sending what a well-behaved client never would."""

    def __init__(self, server, rcvbuf: int | None = None) -> None:
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        if rcvbuf is not None:         # a small window makes a stalled reader stall fast
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
        self.sock.settimeout(10)
        self.sock.connect((server.host, server.port))
        self.buf = b""
        self.events: list[dict] = []

    def send(self, data: bytes) -> None:
        self.sock.sendall(data)

    def line(self) -> dict:
        while b"\n" not in self.buf:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("closed")
            self.buf += chunk
        line, _, self.buf = self.buf.partition(b"\n")
        return json.loads(line)

    def request(self, message: dict) -> dict:
        """Send and return the next reply (events read on the way are kept in `events`)."""
        self.send(json.dumps(message).encode() + b"\n")
        while True:
            message = self.line()
            if "status" in message:
                return message
            self.events.append(message)

    def close(self) -> None:
        self.sock.close()


def wait_event(client: Client, type_: str, timeout: float = 5.0, **data) -> dict:
    """The next event of `type_` whose data has the given values (others are skipped)."""
    deadline = time.monotonic() + timeout
    while (left := deadline - time.monotonic()) > 0:
        event = client.next_event(timeout=left)
        if (event is not None and event["type"] == type_
                and all(event["data"].get(k) == v for k, v in data.items())):
            return event
    raise AssertionError(f"no {type_} event within {timeout} s")


# the shared motor with a second value, `limit`, only an ADMIN session may read
MOTOR = ('.value {"group": 1, "id": 4, "name": "limit", "auth": 2, "init": 3.0}\n'
         + mvasmkit.MOTOR)
