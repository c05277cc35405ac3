"""Files over CAN: `CanFileServer` serves a FileSystem on one node, `CanFileSystem` is the
FileSystem a task sees on another, over ISO-TP (canproto says how, docs/backends.md why).

Nothing waits for ever: a request that gets no answer within `timeout` fails with
-ETIMEDOUT (a dead server, a lost frame; also a long request whose first frame no one
acknowledges), and a transfer that ISO-TP reports broken (a duplicated or missing
consecutive frame) fails with -EIO.  Either
way the operation may or may not have happened on the server.
"""
from __future__ import annotations

import errno
import struct
import threading
import time

from . import canproto as proto
from .canproto import open_can_bus
from .api import Descriptors, normalize

__all__ = ["CanFileServer", "CanFileSystem", "open_can_bus"]

SERVER_PID = 1                # the client's descriptors, on the served file system
POLL = 0.05                   # seconds between checks for a broken transfer or a stop


class CanFileSystem:
    """The client: a FileSystem whose calls are requests to a CanFileServer."""

    def __init__(self, bus, *, server_id: int = proto.SERVER_ID, client_id: int = proto.CLIENT_ID,
                 timeout: float = 1.0, max_open_per_task: int = 32,
                 location: str | None = None) -> None:
        self.location = location or f"can:{getattr(bus, 'channel_info', 'bus')}"
        self.timeout = timeout
        self._bus = bus
        self._broken: BaseException | None = None
        self._stack = proto.isotp_stack(bus, rxid=client_id, txid=server_id,
                                        timeout_ms=max(1, int(timeout * 1000)),
                                        on_error=self._transfer_failed)
        self._lock = threading.Lock()
        self._seq = 0
        self._greeted = False
        self._files: Descriptors[int] = Descriptors(max_open_per_task)

    # -- descriptors ---------------------------------------------------------------------------
    def open(self, pid: int, path: str, flags: int = 0) -> int:
        if normalize(path) in (None, "/"):
            return -errno.EINVAL
        if self._files.full(pid):
            return -errno.EMFILE
        answer = self._call(proto.OPEN, struct.pack("<I", flags) + self._encode(path))
        if answer.status < 0:
            return answer.status
        return self._files.add(pid, answer.status)

    def read(self, pid: int, fd: int, length: int) -> bytes | int:
        handle = self._files.get(pid, fd)
        if handle is None:
            return -errno.EBADF
        data = bytearray()
        while len(data) < length:
            ask = min(length - len(data), proto.MAX_DATA)
            answer = self._call(proto.READ, struct.pack("<IH", handle, ask))
            if answer.status < 0:
                return bytes(data) if data else answer.status
            data += answer.body
            if len(answer.body) < ask:
                break
        return bytes(data)

    def write(self, pid: int, fd: int, data: bytes) -> int:
        handle = self._files.get(pid, fd)
        if handle is None:
            return -errno.EBADF
        for offset in range(0, len(data), proto.MAX_WRITE):
            answer = self._call(proto.WRITE, struct.pack("<I", handle)
                                + data[offset:offset + proto.MAX_WRITE])
            if answer.status < 0:
                return answer.status
        return len(data)

    def seek(self, pid: int, fd: int, offset: int, whence: int) -> int:
        handle = self._files.get(pid, fd)
        if handle is None:
            return -errno.EBADF
        if not -0x80000000 <= offset <= 0x7FFFFFFF or not 0 <= whence <= 0xFF:
            return -errno.EINVAL
        return self._call(proto.SEEK, struct.pack("<IiB", handle, offset, whence)).status

    def close(self, pid: int, fd: int) -> int:
        handle = self._files.pop(pid, fd)
        if handle is None:
            return -errno.EBADF
        return self._call(proto.CLOSE, struct.pack("<I", handle)).status

    def open_count(self, pid: int) -> int:
        return self._files.count(pid)

    def release_task(self, pid: int) -> None:
        for handle in self._files.release(pid):
            self._call(proto.CLOSE, struct.pack("<I", handle))

    def shutdown(self) -> None:
        """Close what is open on the server, then leave the bus."""
        if self._stack is None:
            return
        for handle in self._files.all():
            self._call(proto.CLOSE, struct.pack("<I", handle))
        self._stack.stop()
        self._stack = None
        self._bus.shutdown()

    # -- directory operations --------------------------------------------------------------------
    def listdir(self, path: str = "/") -> bytes | int:
        listing = bytearray()
        while True:
            answer = self._call(proto.LISTDIR, struct.pack("<I", len(listing)) + self._encode(path))
            if answer.status < 0:
                return answer.status
            listing += answer.body
            if len(listing) >= answer.status or not answer.body:
                return bytes(listing)

    def delete(self, path: str) -> int:
        return self._call(proto.DELETE, self._encode(path)).status

    def rename(self, old: str, new: str) -> int:
        return self._call(proto.RENAME, self._encode(old) + b"\0" + self._encode(new)).status

    def mkdir(self, path: str) -> int:
        return self._call(proto.MKDIR, self._encode(path)).status

    # -- the exchange ------------------------------------------------------------------------------
    @staticmethod
    def _encode(path: str) -> bytes:
        return path.encode("utf-8", "replace")[:proto.MAX_WRITE]

    def _call(self, op: int, body: bytes) -> proto.Message:
        """One request and its answer; a failure is an answer with a negative status."""
        with self._lock:
            if not self._greeted:
                hello = self._exchange(proto.HELLO, proto.PROTOCOL)
                if hello.status < 0:
                    return hello
                self._greeted = True
            return self._exchange(op, body)

    def _exchange(self, op: int, body: bytes) -> proto.Message:
        if self._stack is None:
            return proto.Message(op, 0, b"", -errno.EIO)
        self._seq = (self._seq + 1) & 0xFF
        while self._stack.available():           # late answers to earlier requests
            self._stack.recv()
        self._broken = None
        self._stack.send(proto.request(op, self._seq, body))
        deadline = time.monotonic() + self.timeout
        while (left := deadline - time.monotonic()) > 0:
            if self._broken is not None:
                return proto.Message(op, self._seq, b"", -_errno_of(self._broken))
            raw = self._stack.recv(block=True, timeout=min(left, POLL))
            if raw is None:
                continue
            try:
                answer = proto.parse_response(raw)
            except proto.ProtocolError:
                continue
            if answer.seq == self._seq and answer.op == op:
                return answer
        return proto.Message(op, self._seq, b"", -errno.ETIMEDOUT)

    def _transfer_failed(self, error: BaseException) -> None:
        """ISO-TP's error handler (its thread): the transfer under way is broken."""
        self._broken = error


def _errno_of(error: BaseException) -> int:
    """No flow control for our request: nobody is listening (a timeout); anything else
    ISO-TP reports is a broken transfer (-EIO)."""
    import isotp
    return errno.ETIMEDOUT if isinstance(error, isotp.errors.FlowControlTimeoutError) else errno.EIO


class CanFileServer:
    """Serves one FileSystem to one client over ISO-TP, on a thread of its own."""

    def __init__(self, fs, bus, *, server_id: int = proto.SERVER_ID,
                 client_id: int = proto.CLIENT_ID, timeout_ms: int = 1000) -> None:
        self.fs = fs
        self._bus = bus
        self._ids = (server_id, client_id, timeout_ms)
        self._stack = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._last: tuple[bytes, bytes] | None = None     # (request, its answer)
        self.served = 0

    def start(self) -> None:
        server_id, client_id, timeout_ms = self._ids
        self._stack = proto.isotp_stack(self._bus, rxid=server_id, txid=client_id,
                                        timeout_ms=timeout_ms)
        self._thread = threading.Thread(target=self._serve, name="hsx-fs-server", daemon=True)
        self._thread.start()

    def wait(self) -> None:
        """Serve until `stop` (from another thread or a signal handler)."""
        while self._thread is not None and self._thread.is_alive():
            self._thread.join(0.2)

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
            self._thread = None
        if self._stack is not None:
            self._stack.stop()
            self._stack = None
            self._bus.shutdown()
        self.fs.release_task(SERVER_PID)

    def _serve(self) -> None:
        while not self._stop.is_set():
            raw = self._stack.recv(block=True, timeout=POLL)
            if raw is not None and (reply := self.answer(bytes(raw))) is not None:
                self._stack.send(reply)

    def answer(self, raw: bytes) -> bytes | None:
        """The reply to one request (None for a message that is not one)."""
        if self._last is not None and self._last[0] == raw:
            return self._last[1]                  # the same request again: answered, not rerun
        try:
            message = proto.parse_request(raw)
        except proto.ProtocolError:
            return None
        try:
            status, data = self._run(message)
        except (struct.error, UnicodeDecodeError, ValueError):
            status, data = -errno.EINVAL, b""
        reply = proto.response(message.op, message.seq, status, data)
        self._last = (raw, reply)
        self.served += 1
        return reply

    def _run(self, message: proto.Message) -> tuple[int, bytes]:
        fs, body, op = self.fs, message.body, message.op
        if op == proto.HELLO:
            fs.release_task(SERVER_PID)           # a new client: nothing of the old is open
            return 0, proto.PROTOCOL
        if op == proto.OPEN:
            (flags,) = struct.unpack_from("<I", body)
            return fs.open(SERVER_PID, body[4:].decode(), flags), b""
        if op == proto.READ:
            handle, length = struct.unpack("<IH", body)
            data = fs.read(SERVER_PID, handle, min(length, proto.MAX_DATA))
            return (data, b"") if isinstance(data, int) else (len(data), data)
        if op == proto.WRITE:
            (handle,) = struct.unpack_from("<I", body)
            return fs.write(SERVER_PID, handle, body[4:]), b""
        if op == proto.SEEK:
            return fs.seek(SERVER_PID, *struct.unpack("<IiB", body)), b""
        if op == proto.CLOSE:
            return fs.close(SERVER_PID, *struct.unpack("<I", body)), b""
        if op == proto.LISTDIR:
            (offset,) = struct.unpack_from("<I", body)
            listing = fs.listdir(body[4:].decode())
            if isinstance(listing, int):
                return listing, b""
            return len(listing), listing[offset:offset + proto.MAX_DATA]
        if op == proto.RENAME:
            old, new = body.decode().split("\0")
            return fs.rename(old, new), b""
        path = body.decode()
        return {proto.DELETE: fs.delete, proto.MKDIR: fs.mkdir}[op](path), b""
