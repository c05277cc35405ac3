"""Tasks waiting on mailboxes (a part of `Kernel`): a receive or a full-mailbox send
parks the task, and a send, a timeout or a freed mailbox completes it, writing the
outcome into the task's registers and memory."""
from __future__ import annotations

from typing import Iterable

from hsx.kernel.constants import MbxStatus
from hsx.vm import SvcStop

from .mailbox.results import RecvResult, Wake
from .states import Reason
from .syscalls.mailbox import MAILBOX_WAIT
from .task import MailboxWait, SendWait, Task


class MailboxWaits:
    """Mixed into `Kernel`: uses its mailboxes, timers, stdio, task table and wakes."""

    def block_on_mailbox(self, task: Task, handle: int, buffer: int, max_len: int,
                         info_ptr: int, deadline: float | None, timeout: int,
                         stdin: bool = False) -> SvcStop:
        self.mailboxes.add_waiter(task.pid, handle, deadline,
                                  max_len=None if stdin else max_len, timeout=timeout)
        task.wait = MailboxWait(handle, buffer, max_len, info_ptr, deadline, stdin=stdin)
        if deadline is not None:
            self.timers.schedule(task.pid, deadline)
        return SvcStop(MAILBOX_WAIT)

    def block_on_send(self, task: Task, handle: int, payload: bytes, flags: int, channel: int,
                      deadline: float | None) -> SvcStop:
        """SEND_WAIT on a full mailbox: park the sender until a receive makes room."""
        task.wait = SendWait(handle, payload, flags, channel, deadline)
        self._blocked_senders[task.pid] = task
        if deadline is not None:
            self.timers.schedule(task.pid, deadline)
        return SvcStop(MAILBOX_WAIT)

    def retry_senders(self) -> None:
        """A receive made room somewhere: let blocked senders try again, oldest first."""
        for pid, task in list(self._blocked_senders.items()):
            if task.handler is not None:
                continue                             # running a stopped handler: later
            wait = task.wait
            sent = self.mailboxes.send(pid, wait.handle, wait.payload, wait.flags, wait.channel)
            if sent.status is MbxStatus.WOULDBLOCK:
                continue
            self._finish_send(task, int(sent.status), sent.length)
            self.deliver_wakes(sent.wakes)

    def _finish_send(self, task: Task, status: int, length: int) -> None:
        del self._blocked_senders[task.pid]
        task.wait = None
        self.timers.cancel(task.pid)
        task.ctx.regs[0], task.ctx.regs[1] = status, length
        timed_out = status == MbxStatus.TIMEOUT
        if timed_out:
            task.accounting.timeouts += 1
        else:
            task.accounting.wakes += 1
        self._wake(task, Reason.TIMEOUT if timed_out else Reason.MAILBOX_WAKE, status=status)

    @staticmethod
    def complete_recv(task: Task, result: RecvResult, buffer: int, info_ptr: int) -> None:
        """Write a receive's outcome into the task: R0..R4, the payload, the info block."""
        regs, message = task.ctx.regs, result.message
        regs[0], regs[1] = int(result.status), result.length
        if message is not None:
            task.ctx.guest_write(buffer, message.payload)
            regs[2], regs[3], regs[4] = message.flags, message.channel, message.src_pid
        if info_ptr:
            task.ctx.guest_write(info_ptr, result.info.pack())

    def deliver_wakes(self, wakes: Iterable[Wake]) -> None:
        """Complete the receives of tasks a send (or a timeout, or a freed mailbox) woke."""
        for wake in wakes:
            task = self.tasks.get(wake.pid)
            if task is not None and task.handler is not None:
                task.handler.deferred.append(wake)   # running a stopped handler: later
                continue
            if task is None or not isinstance(task.wait, MailboxWait):
                continue
            wait = task.wait
            task.wait = None
            self.timers.cancel(task.pid)
            if wait.stdin:
                message = wake.result.message
                self.stdio.arrived(task, message.payload if message else b"", wait.buffer,
                                   wait.max_len)
            else:
                self.complete_recv(task, wake.result, wait.buffer, wait.info_ptr)
            timed_out = wake.result.status is MbxStatus.TIMEOUT
            if timed_out:
                task.accounting.timeouts += 1
            else:
                task.accounting.wakes += 1
            self._wake(task, Reason.TIMEOUT if timed_out else Reason.MAILBOX_WAKE,
                       status=int(wake.result.status))
            if wake.result.message is not None and self._blocked_senders:
                self.retry_senders()
