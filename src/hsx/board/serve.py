"""Serving a board: start a board's executive on a link, wait until it answers a hello,
and say where it listens (`hsx board run`, docs/port.md "The host build").

The host board's executive is the native program `hsx.board.build` makes for a variant;
it serves the framed protocol of docs/wire.md on a TCP port (`socket://HOST:PORT`) or on
a pty (`serial:///dev/pts/N`). The mps2-an385 board is firmware that QEMU runs, its UART
on the same kinds of link (`hsx.board.qemu`).
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
from pathlib import Path
from typing import Any

from hsx.link.frames import Frame, FrameDecoder, encode_frame
from hsx.client.link.payload import TableMismatch, decode_hello
from hsx.client.url import Endpoint, URLError, parse_url

from .build import BOARDS, VARIANTS, BuildError, find_or_build

HELLO_DEADLINE = 30.0            # seconds for a freshly started board to answer
ASK_AGAIN = 2.0                  # seconds before the hello probe asks again


class BoardError(Exception):
    """Why a board cannot be served: `what` went wrong, `why`, and a `hint`."""

    def __init__(self, what: str, why: str, hint: str | None = None) -> None:
        super().__init__(f"{what}: {why}")
        self.what, self.why, self.hint = what, why, hint


def listen_endpoint(listen: str) -> Endpoint | None:
    """Where a board is to listen: a socket:// endpoint (port 0: any free one), or None
    for a pty."""
    if listen in ("pty", "pty://"):
        return None
    try:
        endpoint = parse_url(listen, listening=True)
    except URLError:
        endpoint = None
    if endpoint is None or endpoint.scheme != "socket":
        raise BoardError("--listen", f"{listen!r} is not where a board can listen",
                         "give socket://HOST:PORT (PORT 0 picks a free one) or pty")
    return endpoint


def link_spec(listen: str) -> str:
    """The executive's --listen argument for a URL: socket://HOST:PORT or pty."""
    endpoint = listen_endpoint(listen)
    return "pty" if endpoint is None else f"tcp:{endpoint.host}:{endpoint.port}"


@dataclass
class Served:
    """A running board: its process, the URL a client connects to, and its hello."""

    process: subprocess.Popen
    url: str
    hello: dict[str, Any]
    log: Any                            # the executive's stderr (a file)

    def diagnostics(self) -> str:
        """What the board said about itself (its stderr, its diagnostics UART)."""
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


def start(board: str, listen: str, variant: str, flash: str | None = None,
          fs: str | None = None) -> Served:
    """Build (or find) the board's executive, start it on `listen`, and wait for its
    hello. `flash`: a file that keeps the board's persistent values across runs (None:
    the host board keeps none, the mps2-an385 board's flash lasts as long as the run).
    `fs`: the guests' file system on the host board, `host:DIR` or `fat:IMAGE` (None:
    none). BoardError says what went wrong."""
    if board not in BOARDS:
        raise BoardError("--board", f"unknown board {board!r}", f"boards: {', '.join(BOARDS)}")
    if variant not in VARIANTS:
        raise BoardError("--variant", f"unknown variant {variant!r}",
                         f"variants: {', '.join(VARIANTS)}")
    spec = link_spec(listen)
    if flash is not None:
        check_flash_file(flash)
    files = file_system_options(fs)
    if board == "mps2-an385":
        if fs is not None:
            raise BoardError("--fs", "the mps2-an385 board has no file system yet",
                             "the host board has one: --board host --fs fat:IMAGE")
        from . import qemu
        return qemu.start(spec, listen, variant, flash, HELLO_DEADLINE)
    try:
        program = find_or_build(variant, fat=files[:1] == ["--fat"])
    except BuildError as error:
        raise BoardError(f"the {board} board", f"cannot build its executive: {error}",
                         "hsx builds it with the zig compiler of the 'ziglang' package "
                         "(pip install ziglang)") from None
    log = tempfile.TemporaryFile()      # not a pipe nobody reads (which would stall it)
    persist = ["--persist", str(flash)] if flash else []
    process = subprocess.Popen([str(program), "--listen", spec, *persist, *files],
                               stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=log,
                               preexec_fn=end_with_parent)
    try:
        url = _first_line(process, log)
        hello = probe_hello(url, HELLO_DEADLINE)
    except BaseException:
        if process.poll() is None:
            process.kill()
        process.wait()
        raise
    return Served(process, url, hello, log)


def file_system_options(fs: str | None) -> list[str]:
    """The host board's options for `--fs host:DIR` or `--fs fat:IMAGE`."""
    if fs is None:
        return []
    kind, _, where = fs.partition(":")
    if kind not in ("host", "fat") or not where:
        raise BoardError(f"--fs {fs}", "not host:DIR or fat:IMAGE",
                         "e.g. --fs fat:card.img (make one with hsx fs mkfs card.img --size 8M)")
    if kind == "fat" and not Path(where).is_file():
        raise BoardError(f"--fs {fs}", f"no image {where}",
                         f"make one with hsx fs mkfs {where} --size 8M")
    return ["--root" if kind == "host" else "--fat", where]


def check_flash_file(flash: str) -> None:
    """A --flash file must be a file, or one the board can create."""
    path = Path(flash)
    if path.exists() and not path.is_file():
        raise BoardError(flash, "not a regular file", "give --flash a file for the board's "
                         "persistent values (it is created when missing)")
    if not path.resolve().parent.is_dir():
        raise BoardError(flash, "its directory does not exist",
                         "create the directory first, or give another --flash file")


def _read_log(log: Any) -> str:
    """What the board's executive wrote on its stderr."""
    log.seek(0)
    return log.read().decode(errors="replace").strip()


def end_with_parent() -> None:
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


def probe_hello(url: str, deadline: float,
                alive: subprocess.Popen | None = None) -> dict[str, Any]:
    """Connect to a board's link, ask who it is (an H frame) and return its hello.
    `alive`: the board's process; when it ends, there is no hello to wait for."""
    end = time.monotonic() + deadline
    endpoint = parse_url(url)
    if endpoint.scheme == "socket":
        link: Any = socket.create_connection((endpoint.host, endpoint.port), timeout=deadline)
        send, receive, close, source = link.sendall, lambda: link.recv(4096), link.close, link
    else:
        fd = os.open(endpoint.device, os.O_RDWR | os.O_NOCTTY)
        tty.setraw(fd, termios.TCSANOW)
        send = lambda data: os.write(fd, data)      # noqa: E731
        receive, close, source = (lambda: os.read(fd, 4096)), (lambda: os.close(fd)), fd
    decoder = FrameDecoder()
    asked = 0.0
    try:
        while (left := end - time.monotonic()) > 0:
            if alive is not None and alive.poll() is not None:
                raise BoardError(url, f"the board stopped before it answered (exit status "
                                 f"{alive.returncode})")
            if time.monotonic() - asked > ASK_AGAIN:    # a board still booting missed it
                send(encode_frame("H", 0, lead=True))
                asked = time.monotonic()
            if not select.select([source], [], [], min(left, 0.2))[0]:
                continue
            data = receive()
            if not data:
                break
            for got in decoder.feed(data):
                if isinstance(got, Frame) and got.kind == "H":
                    try:
                        return decode_hello(got.payload)
                    except TableMismatch as error:
                        raise BoardError(url, str(error)) from None
    finally:
        close()
    raise BoardError(url, f"the board did not answer a hello within {deadline:.0f} s")
