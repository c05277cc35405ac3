"""Serving a board: start the host board's executive on a link, wait until it answers a
hello, and say where it listens (`hsx board run`, docs/port.md "The host build").

The executive is the native program `hsx.board.build` makes for a variant; it serves
the framed protocol of docs/wire.md on a TCP port (`socket://HOST:PORT`, what QEMU's
`-serial tcp:` gives too) or on a pty (`serial:///dev/pts/N`).
"""
from __future__ import annotations

import os
import select
import socket
import subprocess
import tempfile
import termios
import time
import tty
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import cbor2

from .build import VARIANTS, BuildError, find_or_build
from .frames import Deframer, FrameError, frame, unframe

BOARDS = ("host",)
HELLO_DEADLINE = 30.0            # seconds for a freshly started board to answer


class BoardError(Exception):
    """Why a board cannot be served: `what` went wrong, `why`, and a `hint`."""

    def __init__(self, what: str, why: str, hint: str | None = None) -> None:
        super().__init__(f"{what}: {why}")
        self.what, self.why, self.hint = what, why, hint


def link_spec(listen: str) -> str:
    """The executive's --listen argument for a URL: socket://HOST:PORT or pty."""
    if listen == "pty" or listen == "pty://":
        return "pty"
    parts = urlsplit(listen)
    try:
        port = parts.port
    except ValueError:
        port = None
    if parts.scheme != "socket" or not parts.hostname or port is None or parts.path not in ("", "/"):
        raise BoardError("--listen", f"{listen!r} is not where a board can listen",
                         "give socket://HOST:PORT (PORT 0 picks a free one) or pty")
    host = parts.hostname
    return f"tcp:{host}:{port}"


@dataclass
class Served:
    """A running board: its process, the URL a client connects to, and its hello."""

    process: subprocess.Popen
    url: str
    hello: dict[str, Any]
    log: Any                            # the executive's stderr (a file)

    def diagnostics(self) -> str:
        return _read_log(self.log)

    def stop(self, timeout: float = 10.0) -> int:
        """End it as Ctrl-C does (SIGINT), or kill it if it does not go; its status."""
        if self.process.poll() is None:
            self.process.send_signal(2)
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
        return self.process.wait()


def start(board: str, listen: str, variant: str) -> Served:
    """Build (or find) the board's executive, start it on `listen`, and wait for its
    hello. BoardError says what went wrong."""
    if board not in BOARDS:
        raise BoardError("--board", f"unknown board {board!r}", f"boards: {', '.join(BOARDS)}")
    if variant not in VARIANTS:
        raise BoardError("--variant", f"unknown variant {variant!r}",
                         f"variants: {', '.join(VARIANTS)}")
    spec = link_spec(listen)
    try:
        program = find_or_build(variant)
    except BuildError as error:
        raise BoardError(f"the {board} board", f"cannot build its executive: {error}",
                         "hsx builds it with the zig compiler of the 'ziglang' package "
                         "(pip install ziglang)") from None
    log = tempfile.TemporaryFile()      # not a pipe nobody reads (which would stall it)
    process = subprocess.Popen([str(program), "--listen", spec], stdin=subprocess.DEVNULL,
                               stdout=subprocess.PIPE, stderr=log, preexec_fn=_end_with_parent)
    try:
        url = _first_line(process, log)
        hello = probe_hello(url, HELLO_DEADLINE)
    except BaseException:
        if process.poll() is None:
            process.kill()
        process.wait()
        raise
    return Served(process, url, hello, log)


def _read_log(log: Any) -> str:
    """What the board's executive wrote on its stderr."""
    log.seek(0)
    return log.read().decode(errors="replace").strip()


def _end_with_parent() -> None:
    """In the child: end (SIGTERM) when the process that started it dies, however it dies,
    so a killed test run or `hsx board run` leaves no board behind (Linux)."""
    try:
        import ctypes
        ctypes.CDLL(None, use_errno=True).prctl(1, 15)     # PR_SET_PDEATHSIG, SIGTERM
    except (OSError, AttributeError):
        pass


def _first_line(process: subprocess.Popen, log: Any) -> str:
    """The URL the executive prints once it listens; its complaint if it exits first."""
    line = process.stdout.readline().decode(errors="replace").strip()
    if line:
        return line
    process.wait()
    complaint = _read_log(log)
    why = complaint.removeprefix("hsx-exec-host: ") or f"it exited with status {process.returncode}"
    if "already in use" in why:
        raise BoardError(why.split(": ")[0].removeprefix("cannot listen on "),
                         "the port is already in use",
                         "stop what listens there, or choose another port in --listen "
                         "(socket://127.0.0.1:0 picks a free one)")
    raise BoardError("the host board", why)


def probe_hello(url: str, deadline: float) -> dict[str, Any]:
    """Connect to a board's link, ask who it is (an H frame) and return its hello."""
    end = time.monotonic() + deadline
    parts = urlsplit(url)
    if parts.scheme == "socket":
        link: Any = socket.create_connection((parts.hostname, parts.port), timeout=deadline)
        send, receive, close = link.sendall, lambda: link.recv(4096), link.close
    else:
        fd = os.open(parts.path, os.O_RDWR | os.O_NOCTTY)
        tty.setraw(fd, termios.TCSANOW)
        send = lambda data: os.write(fd, data)      # noqa: E731
        receive, close = (lambda: os.read(fd, 4096)), (lambda: os.close(fd))
    deframer = Deframer()
    try:
        send(b"\x00" + frame(b"H", 0, b""))
        while (left := end - time.monotonic()) > 0:
            source = link if parts.scheme == "socket" else fd
            if not select.select([source], [], [], left)[0]:
                break
            data = receive()
            if not data:
                break
            for body in deframer.feed(data):
                try:
                    kind, _, payload = unframe(body)
                except FrameError:
                    continue
                if kind == b"H":
                    return cbor2.loads(payload)
    finally:
        close()
    raise BoardError(url, f"the board did not answer a hello within {deadline:.0f} s")
