"""A CAN bus for the host board: python-can's virtual bus, relayed to the board's TCP
connection (port/c/boards/host/host_can.c: 13-byte records, id u32 LE, length, 8 data
bytes).  `tamper(direction, message)` may return the frames to pass on instead (none: a
lost frame, two: a duplicated one), to break transfers on purpose."""
from __future__ import annotations

import socket
import struct
import threading
from typing import Callable

import can

RECORD = struct.Struct("<IB8s")
Tamper = Callable[[str, can.Message], list]


class CanBridge:
    def __init__(self, channel: str, tamper: Tamper | None = None) -> None:
        self.bus = can.Bus(interface="virtual", channel=channel, receive_own_messages=False)
        self.tamper = tamper or (lambda direction, message: [message])
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.spec = f"tcp:127.0.0.1:{self._listener.getsockname()[1]}"
        self._conn: socket.socket | None = None
        self._stop = threading.Event()
        self._threads = [threading.Thread(target=self._from_board, daemon=True),
                         threading.Thread(target=self._to_board, daemon=True)]
        for thread in self._threads:
            thread.start()

    def _from_board(self) -> None:
        self._conn, _ = self._listener.accept()
        buffer = b""
        while not self._stop.is_set():
            try:
                data = self._conn.recv(4096)
            except OSError:
                return
            if not data:
                return
            buffer += data
            while len(buffer) >= RECORD.size:
                ident, length, payload = RECORD.unpack_from(buffer)
                buffer = buffer[RECORD.size:]
                message = can.Message(arbitration_id=ident & 0x1FFFFFFF,
                                      is_extended_id=bool(ident >> 31),
                                      data=payload[:length])
                for frame in self.tamper("from board", message):
                    self.bus.send(frame)

    def _to_board(self) -> None:
        while not self._stop.is_set():
            message = self.bus.recv(0.02)
            if message is None or self._conn is None:
                continue
            for frame in self.tamper("to board", message):
                ident = frame.arbitration_id | (1 << 31 if frame.is_extended_id else 0)
                try:
                    self._conn.sendall(RECORD.pack(ident, len(frame.data), bytes(frame.data)))
                except OSError:
                    return

    def close(self) -> None:
        self._stop.set()
        for thread in self._threads[1:]:
            thread.join(5)
        if self._conn is not None:
            self._conn.close()
        self._listener.close()
        self.bus.shutdown()
