"""A task's stdio mailboxes (a part of `MailboxManager`): creating them at load, fds 0-2,
and writes to fd 1 and 2.

A write is a message on the task's `svc:stdio.out`/`err`, which the executive receives at
once (kernel/stdio.py).  When the executive is the only one who could receive it and
nothing is queued, `hand_to_reader` gives it over without queueing: the same sequence
number, counters and `mailbox_send`/`mailbox_recv` events as a send followed by that
receive, at a third of the cost (docs/mailboxes.md, "Stdio and per-task mailboxes").
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from hsx.kernel.constants import (MESSAGE_HEADER_BYTES, STDIO_ERR, STDIO_IN, STDIO_OUT,
                                  MbxFlag, MbxFn, MbxMode, MbxNamespace, MbxStatus)
from hsx.kernel.mailbox.events import RECV_TYPE, SEND_TYPE, MailboxEvent
from hsx.kernel.mailbox.results import MailboxError, SendResult, StdioHandles

if TYPE_CHECKING:
    from hsx.kernel.mailbox.descriptor import Descriptor, Handle

_STDIO_FLAGS = {1: int(MbxFlag.STDOUT), 2: int(MbxFlag.STDERR)}


class StdioMailboxes:
    """Mixed into `MailboxManager`: uses its descriptors, handles, counters and events."""

    def create_task_mailboxes(self, pid: int) -> StdioHandles:
        """Bind `svc:stdio.in/out/err` and `pid:<pid>` for a new task and open its fd 0/1/2.

        On failure nothing is left behind and MailboxError says which limit was hit.
        """
        if pid in self._stdio:
            raise MailboxError(MbxStatus.INTERNAL_ERROR, f"task {pid} already has its mailboxes")
        bound: list[Descriptor] = []
        opened: list[Handle] = []
        try:
            for target in (STDIO_IN, STDIO_OUT, STDIO_ERR, MbxNamespace.PID.prefix):
                bound.append(self._bind(pid, target, 0, self.stdio_modes.get(target, 0))[0])
            for target, access in ((STDIO_IN, MbxMode.RDONLY), (STDIO_OUT, MbxMode.WRONLY),
                                   (STDIO_ERR, MbxMode.WRONLY)):
                opened.append(self._open(pid, target, access))
        except MailboxError:
            for handle in opened:
                self._drop_handle(handle)
            for descriptor in bound:
                descriptor.binders.discard(pid)
                self._free_if_unused(descriptor)
            raise
        stdio = StdioHandles(*(handle.number for handle in opened))
        self._stdio[pid] = stdio
        return stdio

    def stdio_handle(self, pid: int, fd: int) -> int | None:
        """The handle behind fd 0/1/2 of a task, or None."""
        stdio = self._stdio.get(pid)
        return stdio.for_fd(fd) if stdio else None

    def write_stdio(self, pid: int, fd: int, data: bytes) -> SendResult:
        """Send a write to fd 1 or 2 as one message flagged STDOUT or STDERR.

        An empty write sends nothing, as write(2) of zero bytes does.
        """
        flags = _STDIO_FLAGS.get(fd)
        handle = self.stdio_handle(pid, fd)
        if flags is None or handle is None:
            self._refused(pid, MbxFn.SEND, MailboxError(
                MbxStatus.INVALID_HANDLE, f"task {pid} has no output stream for fd {fd}"))
            return SendResult(MbxStatus.INVALID_HANDLE)
        if not data:
            return SendResult(MbxStatus.OK)
        return self.send(pid, handle, data, flags)

    def hand_to_reader(self, pid: int, fd: int, data: bytes, reader_pid: int,
                       reader_handle: int) -> bool:
        """A non-empty write to fd 1 or 2 received at once by `reader_handle`: True when
        done without queueing, which is when nobody else could see the message queued (the
        mailbox is in queue mode with nothing queued, nobody waits on it, it has no taps
        and that handle is its only reader) and it fits.  False: nothing was done; send
        it (`write_stdio`) and receive it."""
        stdio = self._stdio.get(pid)
        if stdio is None or (fd != 1 and fd != 2):
            return False
        handles = self._handles
        writer = handles[pid].get(stdio.stdout if fd == 1 else stdio.stderr)
        readers = handles.get(reader_pid)
        reader = readers.get(reader_handle) if readers is not None else None
        if writer is None or reader is None:
            return False
        descriptor, length = reader.descriptor, len(data)
        if (descriptor is not writer.descriptor or descriptor.fanout or descriptor.messages
                or descriptor.waiters or length > self.max_message_size
                or descriptor.bytes_used + length + MESSAGE_HEADER_BYTES > descriptor.capacity):
            return False
        for handle in descriptor.handles:
            if handle is not reader and (handle.can_read or handle.tap is not None):
                return False
        seq = descriptor.next_seq
        descriptor.next_seq = seq + 1
        counters = self._counters
        counters.messages_sent += 1
        counters.messages_received += 1
        wants = self._wants
        if self._emit_fn is not None and (wants is None or wants(SEND_TYPE) or wants(RECV_TYPE)):
            flags = _STDIO_FLAGS[fd]
            if self._observed(SEND_TYPE):
                self._emit(MailboxEvent.SEND, pid, descriptor=descriptor.id,
                           handle=writer.number, **_fields(length, flags, pid, seq))
            if self._observed(RECV_TYPE):
                self._emit(MailboxEvent.RECV, reader_pid, descriptor=descriptor.id,
                           handle=reader_handle, tap=False, **_fields(length, flags, pid, seq))
        return True



def _fields(length: int, flags: int, pid: int, seq: int) -> dict[str, int]:
    """A stdio message's fields in its events, as `manager._message_fields` gives them."""
    return {"length": length, "flags": flags, "channel": 0, "src_pid": pid, "seq": seq}
