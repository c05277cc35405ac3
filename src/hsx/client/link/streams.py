"""The byte streams a framed link runs over: a TCP socket (`socket://`) or a serial port
(`serial://`, pyserial), for the blocking client and for asyncio."""
from __future__ import annotations

import asyncio
import os
import select
import socket
import time

from ..errors import ConnectionClosed
from ..url import Endpoint

_READ = 1 << 16


class SyncStream:
    """Blocking reads with a timeout, writes, close."""

    baud: int | None = None           # the link's speed (None: as fast as it gets)

    def read(self, timeout: float | None) -> bytes | None:
        """What arrived (waiting up to `timeout` s); None when nothing did; raises
        ConnectionClosed when the other end is gone."""
        raise NotImplementedError

    def write(self, data: bytes) -> None:
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError


class SocketStream(SyncStream):
    def __init__(self, host: str, port: int, timeout: float) -> None:
        self._sock = socket.create_connection((host, port), timeout=timeout)
        self._sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self._sock.settimeout(timeout)
        self._timeout = timeout

    def read(self, timeout: float | None) -> bytes | None:
        try:
            ready, _, _ = select.select([self._sock], [], [], timeout)
            if not ready:
                return None
            data = self._sock.recv(_READ)
        except (OSError, ValueError) as error:
            raise ConnectionClosed(f"connection to the device failed: {error}") from None
        if not data:
            raise ConnectionClosed("the device closed the connection")
        return data

    def write(self, data: bytes) -> None:
        try:
            self._sock.sendall(data)
        except OSError as error:
            raise ConnectionClosed(f"cannot send to the device: {error}") from None

    def close(self) -> None:
        try:
            self._sock.close()
        except OSError:
            pass


class SerialStream(SyncStream):
    def __init__(self, device: str, baud: int, timeout: float) -> None:
        self.baud = baud
        self._port = open_serial(device, baud)
        self._timeout = timeout

    def read(self, timeout: float | None) -> bytes | None:
        port = self._port
        try:
            port.timeout = timeout
            first = port.read(1)
            if not first:
                return None
            return first + port.read(port.in_waiting) if port.in_waiting else first
        except Exception as error:        # serial.SerialException, OSError
            raise ConnectionClosed(f"the serial port failed: {error}") from None

    def write(self, data: bytes) -> None:
        try:
            self._port.write_timeout = self._timeout
            self._port.write(data)
        except Exception as error:
            raise ConnectionClosed(f"cannot send on the serial port: {error}") from None

    def close(self) -> None:
        try:
            self._port.close()
        except Exception:
            pass


def open_serial(device: str, baud: int):
    """The port, configured raw at `baud` (ConnectionError with pyserial's reason)."""
    import serial                          # only serial:// links need pyserial loaded
    try:
        return serial.Serial(device, baud, timeout=0, exclusive=True)
    except (serial.SerialException, OSError, ValueError) as error:
        raise ConnectionError(f"cannot open {device}: {error}") from None


def open_sync(endpoint: Endpoint, timeout: float) -> SyncStream:
    if endpoint.scheme == "serial":
        return SerialStream(endpoint.device, endpoint.baud, timeout)
    return SocketStream(endpoint.host, endpoint.port, timeout)


async def open_async(endpoint: Endpoint, timeout: float
                     ) -> tuple[asyncio.StreamReader, asyncio.StreamWriter, int | None]:
    """(reader, writer, baud) for the endpoint; a serial port's descriptor is served by
    the event loop like a pipe (POSIX)."""
    if endpoint.scheme != "serial":
        reader, writer = await asyncio.wait_for(
            asyncio.open_connection(endpoint.host, endpoint.port), timeout)
        sock = writer.get_extra_info("socket")
        if sock is not None:
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        return reader, writer, None
    port = open_serial(endpoint.device, endpoint.baud)
    loop = asyncio.get_running_loop()
    try:
        reader = asyncio.StreamReader()
        read_pipe = os.fdopen(os.dup(port.fileno()), "rb", buffering=0)
        await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), read_pipe)
        write_pipe = os.fdopen(os.dup(port.fileno()), "wb", buffering=0)
        transport, protocol = await loop.connect_write_pipe(
            lambda: asyncio.StreamReaderProtocol(asyncio.StreamReader()), write_pipe)
        writer = asyncio.StreamWriter(transport, protocol, None, loop)
    finally:
        port.close()                       # the loop's duplicates keep the tty open
    return reader, writer, endpoint.baud


def attempt_timeout(baud: int | None, timeout: float, fixed: float | None):
    """How long to wait for a reply to a frame of `n` bytes before sending it again:
    `fixed` (the URL's retry_ms) if given; else the time the frame and a large reply
    take at `baud`, with a margin, and never less than a quarter of the client's
    timeout, so four attempts last about as long as one request may."""
    if fixed is not None:
        return lambda n: fixed

    def wait(n: int) -> float:
        on_wire = 0.0 if baud is None else (n + 1100) * 10 / baud
        return max(2 * on_wire + 0.2, timeout / 4)
    return wait


def now() -> float:
    return time.monotonic()
