"""Where DAP messages come from and go to: the adapter's stdin/stdout, or a TCP client.

`Channel.read()` gives the next request (or `Malformed`), None at the end;
`Channel.send(message)` writes one.  On stdio the real stdin and stdout are kept for
the protocol, file descriptor 0 is pointed at /dev/null and 1 at stderr, so nothing
printed by accident (a library, a child process that inherits it) can corrupt the DAP
stream, and nothing else can read the client's requests.
"""
from __future__ import annotations

import asyncio
import os
import sys
import threading
from typing import Any, BinaryIO

from .protocol import Framer, Malformed, encode

Incoming = dict[str, Any] | Malformed


class Channel:
    def __init__(self) -> None:
        self._queue: asyncio.Queue[Incoming | None] = asyncio.Queue()
        self._framer = Framer()

    async def read(self) -> Incoming | None:
        return await self._queue.get()

    def end(self) -> None:
        """Stop reading: the adapter finishes as if the client had gone."""
        self._queue.put_nowait(None)

    def _received(self, chunk: bytes) -> None:
        if not chunk:
            self._queue.put_nowait(None)
            return
        for message in self._framer.feed(chunk):
            self._queue.put_nowait(message)

    def send(self, message: dict[str, Any]) -> None:
        raise NotImplementedError

    async def close(self) -> None:
        pass


class StdioChannel(Channel):
    """stdin read by a thread (portable: no asyncio pipes on Windows), stdout written in
    the event loop.

    The thread reads the file descriptor with `os.read`, never through `sys.stdin`: a
    thread blocked in a buffered reader holds its lock, and at interpreter shutdown
    (after `disconnect`, with the client still holding the pipe open) Python's own
    closing of `sys.stdin` could not take that lock and aborted the process (SIGABRT).
    A thread blocked in `os.read` holds nothing, and dies with the process."""

    def __init__(self) -> None:
        super().__init__()
        self._out: BinaryIO = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
        os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
        sys.stdout = sys.stderr
        self._in = os.dup(sys.stdin.fileno())
        with open(os.devnull, "rb") as nothing:
            os.dup2(nothing.fileno(), sys.stdin.fileno())
        loop = asyncio.get_running_loop()
        threading.Thread(target=self._reader, args=(loop,), name="dap-stdin",
                         daemon=True).start()

    def _reader(self, loop: asyncio.AbstractEventLoop) -> None:
        while True:
            try:
                chunk = os.read(self._in, 65536)
            except OSError:
                chunk = b""
            try:
                loop.call_soon_threadsafe(self._received, chunk)
            except RuntimeError:              # the loop is closed: the adapter is done
                return
            if not chunk:
                return

    def send(self, message: dict[str, Any]) -> None:
        try:
            self._out.write(encode(message))
            self._out.flush()
        except (OSError, ValueError):
            pass                                  # the client is gone: read() ends soon


class StreamChannel(Channel):
    """One TCP client (`hsx dap --port`)."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        super().__init__()
        self._writer = writer
        self._task = asyncio.create_task(self._pump(reader))

    async def _pump(self, reader: asyncio.StreamReader) -> None:
        while True:
            try:
                chunk = await reader.read(65536)
            except (OSError, ConnectionError):
                chunk = b""
            self._received(chunk)
            if not chunk:
                return

    def send(self, message: dict[str, Any]) -> None:
        if not self._writer.is_closing():
            self._writer.write(encode(message))

    async def close(self) -> None:
        self._task.cancel()
        self._writer.close()
        try:
            await self._writer.wait_closed()
        except (OSError, ConnectionError):
            pass
