"""What the executive is reached through: a `Transport` opens, hands every client it
gets to the server as a connection, and closes.  Two protocols, four transports:

    tcp     protocol v1 as JSON lines over TCP (always: --host/--port)
    socket  the framed link a board speaks (docs/wire.md), on a TCP port
    serial  the framed link on a serial device (a UART to another machine)
    pty     the framed link on a new pseudo-terminal, whose path is printed

The framed ones are the `[link]` backend of a configuration file (docs/backends.md) or
`hsx execd --link URL`; the C executive's counterpart is its `hsx_link` HAL struct
(port/c/hsx_hal.h).  A front end reaches each by its URL (hsx.client.url).
"""
from __future__ import annotations

import asyncio
import os
from typing import TYPE_CHECKING, Any, Protocol

from .connection import Connection
from .framed import FramedPeer, new_boot

if TYPE_CHECKING:
    from .context import ServerContext

PTY_RETRY_S = 0.2           # a pty without a host reads as an error: look again this often


class Transport(Protocol):
    async def open(self, server: ServerContext) -> str:
        """Start taking clients; returns the URL they reach it at."""

    def close(self) -> None:
        """Take no more clients (those connected are the server's to close)."""


class TcpTransport:
    """Protocol v1's JSON lines over TCP (hsx.server.connection)."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.address: tuple[str, int] | None = None
        self._listener: asyncio.AbstractServer | None = None

    async def open(self, server: ServerContext) -> str:
        loop = asyncio.get_running_loop()
        self._listener = await loop.create_server(lambda: Connection(server), self.host,
                                                  self.port, reuse_address=True)
        sockname = self._listener.sockets[0].getsockname()
        self.address = (sockname[0], sockname[1])
        return f"tcp://{_url_host(sockname[0])}:{sockname[1]}"

    def close(self) -> None:
        if self._listener is not None:
            self._listener.close()


class SocketLink:
    """The framed link on a TCP port: each client that connects is a host."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self._listener: asyncio.AbstractServer | None = None

    async def open(self, server: ServerContext) -> str:
        boot = new_boot()
        loop = asyncio.get_running_loop()
        self._listener = await loop.create_server(lambda: _FramedStream(server, boot),
                                                  self.host, self.port, reuse_address=True)
        sockname = self._listener.sockets[0].getsockname()
        return f"socket://{_url_host(sockname[0])}:{sockname[1]}"

    def close(self) -> None:
        if self._listener is not None:
            self._listener.close()


class _FramedStream(asyncio.Protocol):
    def __init__(self, server: ServerContext, boot: int) -> None:
        self.server, self.boot = server, boot
        self.peer: FramedPeer | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        address = transport.get_extra_info("peername")
        name = f"{address[0]}:{address[1]}" if isinstance(address, tuple) else str(address)
        self.peer = FramedPeer(self.server, transport.write, transport.close,   # type: ignore
                               name, self.boot)
        transport.write(self.peer.hello_frame())        # type: ignore[attr-defined]

    def data_received(self, data: bytes) -> None:
        if self.peer is not None:
            self.peer.feed(data)

    def connection_lost(self, exc: Exception | None) -> None:
        if self.peer is not None:
            self.peer.lost()


class DeviceLink:
    """The framed link on a character device: a serial port (`device`, at `baud`), or
    with no device a new pseudo-terminal whose other end a host opens (`serial://PATH`).
    The link outlives its hosts: the next host says hello on the same line."""

    def __init__(self, device: str | None = None, baud: int = 115_200) -> None:
        self.device, self.baud = device, baud
        self.path: str | None = None
        self._fd: int | None = None
        self._keep: Any = None                  # the pty's other end, or the serial port
        self._peer: FramedPeer | None = None
        self._out = bytearray()
        self._loop: asyncio.AbstractEventLoop | None = None

    async def open(self, server: ServerContext) -> str:
        self._loop = asyncio.get_running_loop()
        if self.device is None:
            import tty
            self._fd, other = os.openpty()
            tty.setraw(self._fd)
            tty.setraw(other)
            self._keep, self.path = other, os.ttyname(other)
        else:
            import serial                       # pyserial: the port's speed and raw mode
            port = serial.Serial(self.device, self.baud, timeout=0)
            self._keep, self._fd, self.path = port, port.fileno(), self.device
        os.set_blocking(self._fd, False)
        self._peer = FramedPeer(server, self._write, lambda: None, self.path, new_boot())
        self._loop.add_reader(self._fd, self._readable)
        self._write(self._peer.hello_frame())   # at "boot", as a board says hello
        return f"serial://{self.path}?baud={self.baud}"

    def _readable(self) -> None:
        try:
            data = os.read(self._fd, 65536)
        except BlockingIOError:
            return
        except OSError:                         # a pty whose host closed its end
            data = b""
        if not data:
            self._loop.remove_reader(self._fd)
            self._loop.call_later(PTY_RETRY_S, self._listen_again)
            return
        self._peer.feed(data)

    def _listen_again(self) -> None:
        if self._fd is not None:
            self._loop.add_reader(self._fd, self._readable)

    def _write(self, data: bytes) -> None:
        """Queue bytes for the host; what the line cannot take now goes when it can
        (never dropped: a host that stopped reading holds up only this link)."""
        if self._fd is None:
            return
        start = not self._out
        self._out += data
        if start:
            self._flush()

    def _flush(self) -> None:
        if self._fd is None:                    # closed meanwhile
            return
        try:
            sent = os.write(self._fd, self._out)
        except BlockingIOError:
            sent = 0
        except OSError:                         # nobody at the other end: drop it
            sent = len(self._out)
        del self._out[:sent]
        if self._out:
            self._loop.call_later(0.001 if sent else PTY_RETRY_S / 10, self._flush)

    def close(self) -> None:
        if self._fd is None:
            return
        self._loop.remove_reader(self._fd)
        if self._peer is not None:
            self._peer.lost()
        fd, self._fd = self._fd, None
        if isinstance(self._keep, int):
            os.close(self._keep)
            os.close(fd)
        elif self._keep is not None:
            self._keep.close()


def link_transport(table: dict[str, Any]) -> Transport:
    """The framed link a `[link]` table names (hsx.kernel.backends checked it)."""
    kind = table["backend"]
    if kind == "socket":
        return SocketLink(table.get("host", "127.0.0.1"), table["port"])
    if kind == "serial":
        return DeviceLink(table["device"], table.get("baud", 115_200))
    return DeviceLink()


def _url_host(host: str) -> str:
    return f"[{host}]" if ":" in host else host
