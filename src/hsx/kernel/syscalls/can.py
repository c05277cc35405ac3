"""Module 0x02: CAN frames through a pluggable `Bus` (python-can's virtual bus by default).

Frames wait for a task in a bounded queue (`inputs.CAN_QUEUE`, the oldest dropped and
counted when full), so a task that never reads cannot make the executive grow."""
from __future__ import annotations

import errno
from typing import TYPE_CHECKING

from hsx.isa.opcodes import HSX_ERR_ENOSYS
from hsx.vm import SvcStop

from ..bus import Bus, CanPort, Frame
from ..inputs import DropOldestQueue

if TYPE_CHECKING:
    from hsx.kernel.services import KernelServices
    from hsx.kernel.task import Task

TX, RX = 0x00, 0x01
EXTENDED = 0x80000000         # R1 bit 31: 29-bit identifier
NO_FRAME = 3                  # as the mailbox NO_DATA status


class CanModule:
    """TX: R1 id (bit 31 = extended), R2 data ptr, R3 length 0..8 -> R0 0 or -EINVAL.
    RX: R1 buffer (8 bytes) -> R0 0 with R1 id and R2 length, or R0 3 when no frame."""

    number = 0x02

    def __init__(self, kernel: "KernelServices", bus: Bus) -> None:
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
