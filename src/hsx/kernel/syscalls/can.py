"""Module 0x02: CAN frames through a pluggable bus (python-can's virtual bus by default).

Frames wait for a task in a bounded queue (`inputs.CAN_QUEUE`, the oldest dropped and
counted when full), so a task that never reads cannot make the executive grow."""
from __future__ import annotations

import errno
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from hsx.isa.opcodes import HSX_ERR_ENOSYS
from hsx.vm import SvcStop

from ..inputs import CAN_QUEUE, DropOldestQueue

if TYPE_CHECKING:
    from hsx.kernel.services import KernelServices
    from hsx.kernel.task import Task

TX, RX = 0x00, 0x01
EXTENDED = 0x80000000         # R1 bit 31: 29-bit identifier
NO_FRAME = 3                  # as the mailbox NO_DATA status


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


class CanBus(Protocol):
    def attach(self, pid: int) -> CanPort: ...


class VirtualCanBus:
    """Every task gets its own python-can virtual bus on one channel: what one task
    sends, the others (and host tools on the same channel) receive."""

    def __init__(self, channel: str = "hsx") -> None:
        self.channel = channel

    def attach(self, pid: int) -> CanPort:
        return _PythonCanPort(self.channel)


class _PythonCanPort:
    def __init__(self, channel: str) -> None:
        import can
        from can.interfaces import virtual
        self._can = can
        self._bus = can.Bus(interface="virtual", channel=channel, receive_own_messages=False)
        # python-can's receive queue grows without limit (or, bounded, makes the sender
        # fail): put a drop-oldest one in its place on the channel.
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


class CanModule:
    """TX: R1 id (bit 31 = extended), R2 data ptr, R3 length 0..8 -> R0 0 or -EINVAL.
    RX: R1 buffer (8 bytes) -> R0 0 with R1 id and R2 length, or R0 3 when no frame."""

    number = 0x02

    def __init__(self, kernel: "KernelServices", bus: CanBus) -> None:
        self.kernel = kernel
        self.bus = bus
        self.ports: dict[int, CanPort] = {}

    def call(self, task: "Task", function: int) -> SvcStop | None:
        regs = task.ctx.regs
        if function == TX:
            length = regs[3]
            if length > 8:
                regs[0] = -errno.EINVAL & 0xFFFFFFFF
                return None
            data = task.ctx.guest_read(regs[2], length)
            extended = bool(regs[1] & EXTENDED)
            can_id = regs[1] & (0x1FFFFFFF if extended else 0x7FF)
            self._port(task.pid).send(Frame(can_id, data, extended))
            self.kernel.events.emit("can_tx", task.pid, {"id": can_id, "data": data.hex(),
                                                         "extended": extended})
            regs[0] = 0
        elif function == RX:
            task.ctx.check_guest_range(regs[1], 8)
            frame = self._port(task.pid).receive()
            if frame is None:
                regs[0] = NO_FRAME
            else:
                task.ctx.guest_write(regs[1], frame.data)
                regs[0], regs[2] = 0, len(frame.data)
                regs[1] = frame.can_id | (EXTENDED if frame.extended else 0)
        else:
            regs[0] = HSX_ERR_ENOSYS
        return None

    def _port(self, pid: int) -> CanPort:
        port = self.ports.get(pid)
        if port is None:
            port = self.ports[pid] = self.bus.attach(pid)
            if isinstance(getattr(port, "queue", None), DropOldestQueue):
                task = self.kernel.tasks[pid]
                self.kernel.inputs.watch(pid, "can", port.queue, task.accounting.input_dropped)
        return port

    def release_task(self, pid: int) -> None:
        port = self.ports.pop(pid, None)
        if port is not None:
            port.close()
