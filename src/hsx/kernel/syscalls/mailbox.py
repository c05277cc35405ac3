"""Module 0x05: mailboxes, with receives that block until data or a timeout."""
from __future__ import annotations

from typing import TYPE_CHECKING

from hsx.kernel.constants import RECV_INFO_SIZE, MbxStatus, MbxTimeout
from hsx.vm import SvcStop

from .memory import read_cstring

if TYPE_CHECKING:
    from hsx.kernel.services import KernelServices
    from hsx.kernel.task import Task

OPEN, BIND, SEND, RECV, PEEK, TAP, CLOSE, SEND_WAIT = range(8)
MAILBOX_WAIT = "mailbox_wait"


class MailboxModule:
    number = 0x05

    def __init__(self, kernel: "KernelServices") -> None:
        self.kernel = kernel

    def call(self, task: "Task", function: int) -> SvcStop | None:
        ctx, regs, pid = task.ctx, task.ctx.regs, task.pid
        boxes = self.kernel.mailboxes
        if function in (SEND, SEND_WAIT):
            payload = ctx.guest_read(regs[2], regs[3] & 0xFFFF)
            timeout = regs[0] & 0xFFFF if function == SEND_WAIT else MbxTimeout.POLL
            result = boxes.send(pid, regs[1], payload, regs[4], regs[5])
            if result.status is MbxStatus.WOULDBLOCK and timeout != MbxTimeout.POLL:
                deadline = None if timeout == MbxTimeout.INFINITE else (
                    self.kernel.clock.now() + timeout / 1000.0)
                return self.kernel.block_on_send(task, regs[1], payload, regs[4], regs[5],
                                                 deadline)
            regs[0] = int(result.status)
            if result.status is MbxStatus.OK:
                regs[1] = result.length
            self.kernel.deliver_wakes(result.wakes)
            return None
        if function == RECV:
            return self._recv(task)
        if function == OPEN:
            target = read_cstring(ctx, regs[1])
            opened = boxes.open(pid, target, regs[2])
            regs[0], regs[1] = int(opened.status), opened.handle
        elif function == BIND:
            target = read_cstring(ctx, regs[1])
            bound = boxes.bind(pid, target, regs[2], regs[3])
            regs[0], regs[1] = int(bound.status), bound.descriptor_id
            self.kernel.deliver_wakes(bound.wakes)
        elif function == PEEK:
            peek = boxes.peek(pid, regs[1])
            regs[0], regs[1], regs[2], regs[3] = (int(peek.status), peek.depth, peek.bytes_used,
                                                  peek.next_length)
        elif function == TAP:
            regs[0] = int(boxes.tap(pid, regs[1], bool(regs[2] & 1)))
        elif function == CLOSE:
            regs[0] = int(boxes.close(pid, regs[1]))
            self.kernel.values.unsubscribe(pid, handle=regs[1])
        else:
            regs[0] = int(MbxStatus.INTERNAL_ERROR)
        return None

    def _recv(self, task: "Task") -> SvcStop | None:
        ctx, regs = task.ctx, task.ctx.regs
        handle, buffer, max_len = regs[1], regs[2], regs[3] & 0xFFFF
        timeout, info_ptr = regs[4] & 0xFFFF, regs[5]
        # Check every pointer now, so completing the receive later can never fault.
        ctx.check_guest_range(buffer, max_len)
        if info_ptr:
            ctx.check_guest_range(info_ptr, RECV_INFO_SIZE)
        result = self.kernel.mailboxes.recv(task.pid, handle, max_len)
        if result.status is MbxStatus.NO_DATA and timeout != MbxTimeout.POLL:
            deadline = None if timeout == MbxTimeout.INFINITE else (
                self.kernel.clock.now() + timeout / 1000.0)
            return self.kernel.block_on_mailbox(task, handle, buffer, max_len, info_ptr,
                                                deadline, timeout)
        self.kernel.complete_recv(task, result, buffer, info_ptr)
        if result.message is not None:
            self.kernel.retry_senders()
        return None
