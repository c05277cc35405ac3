"""The `Bus` interface behind SVC module 0x02 (CAN), and its python-can backend.

A bus hands each task a port of its own (`attach`): what one task sends, the others --
and host tools on the same channel -- receive.  The C executive's `hsx_can` struct
(port/c/hsx_hal.h) has the same send and receive.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from .inputs import CAN_QUEUE, DropOldestQueue


@dataclass(frozen=True)
class Frame:
    can_id: int
    data: bytes
    extended: bool = False


class CanPort(Protocol):
    """One task's attachment to the bus."""

    def send(self, frame: Frame) -> None: ...
    def receive(self) -> Frame | None: ...
    def close(self) -> None: ...


class Bus(Protocol):
    location: str

    def attach(self, pid: int) -> CanPort: ...


class PythonCanBus:
    """A python-can interface and channel ("virtual" and "hsx" unless configured: the
    in-process virtual bus; "socketcan" and "can0" on a Linux host with a CAN adapter)."""

    def __init__(self, channel: str = "hsx", interface: str = "virtual") -> None:
        self.channel = channel
        self.interface = interface
        self.location = f"{interface}:{channel}"

    def attach(self, pid: int) -> CanPort:
        return _PythonCanPort(self.interface, self.channel)


class VirtualCanBus(PythonCanBus):
    """python-can's in-process virtual bus on `channel`."""

    def __init__(self, channel: str = "hsx") -> None:
        super().__init__(channel, "virtual")


class _PythonCanPort:
    def __init__(self, interface: str, channel: str) -> None:
        import can
        self._can = can
        self._bus = can.Bus(interface=interface, channel=channel, receive_own_messages=False)
        self.queue: DropOldestQueue | None = None
        if interface == "virtual":
            self._bounded_queue()

    def _bounded_queue(self) -> None:
        """python-can's virtual receive queue grows without limit (or, bounded, makes the
        sender fail): put a drop-oldest one in its place on the channel."""
        from can.interfaces import virtual
        self.queue = DropOldestQueue(CAN_QUEUE)
        with virtual.channels_lock:
            peers = self._bus.channel
            peers[[q is self._bus.queue for q in peers].index(True)] = self.queue
            self._bus.queue = self.queue

    def send(self, frame: Frame) -> None:
        self._bus.send(self._can.Message(arbitration_id=frame.can_id, data=frame.data,
                                         is_extended_id=frame.extended))

    def receive(self) -> Frame | None:
        message = self._bus.recv(timeout=0)
        if message is None:
            return None
        return Frame(message.arbitration_id, bytes(message.data), message.is_extended_id)

    def close(self) -> None:
        self._bus.shutdown()
