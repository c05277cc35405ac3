"""What mailbox operations hand back to the kernel: statuses, messages and wake-ups.

Guest mistakes come back as a status in a result (never an exception), because the
kernel's only job with them is to put the number in R0.
"""
from __future__ import annotations

from dataclasses import dataclass

from hsx.kernel.constants import RECV_INFO, MbxStatus
from hsx.kernel.mailbox.descriptor import Message


class MailboxError(Exception):
    """A refused operation: raised by kernel-facing calls, turned into a status for guest calls."""

    def __init__(self, status: MbxStatus, message: str):
        super().__init__(message)
        self.status = status


@dataclass(frozen=True)
class RecvInfo:
    """The 20-byte block RECV writes at R5 (little-endian `<iiIII`)."""

    status: int
    length: int = 0
    flags: int = 0
    channel: int = 0
    src_pid: int = 0

    def pack(self) -> bytes:
        return RECV_INFO.pack(self.status, self.length, self.flags, self.channel, self.src_pid)

    @classmethod
    def unpack(cls, data: bytes) -> RecvInfo:
        return cls(*RECV_INFO.unpack(data))


@dataclass(frozen=True)
class RecvResult:
    """Outcome of a receive: R0 = status, R1 = length, R2..R4 from the message.

    On MSG_TOO_LARGE the message stays queued and `length` is the buffer size it needs.
    """

    status: MbxStatus
    message: Message | None = None
    length: int = 0

    @property
    def info(self) -> RecvInfo:
        m = self.message
        if m is None:
            return RecvInfo(self.status, self.length)
        return RecvInfo(self.status, self.length, m.flags, m.channel, m.src_pid)


@dataclass(frozen=True)
class Wake:
    """A blocked receiver to resume with `result` (its RECV completes now)."""

    pid: int
    handle: int
    descriptor_id: int
    result: RecvResult


@dataclass(frozen=True)
class SendResult:
    """Outcome of a send: R0 = status, R1 = bytes accepted; the receivers it wakes."""

    status: MbxStatus
    length: int = 0                  # bytes accepted (R1)
    wakes: tuple[Wake, ...] = ()


@dataclass(frozen=True)
class OpenResult:
    """Outcome of an open: R0 = status, R1 = the new handle."""

    status: MbxStatus
    handle: int = 0


@dataclass(frozen=True)
class BindResult:
    """Outcome of a bind: R0 = status, and the descriptor bound."""

    status: MbxStatus
    descriptor_id: int = 0
    wakes: tuple[Wake, ...] = ()     # a mode change can make queued messages reachable


@dataclass(frozen=True)
class PeekResult:
    """Outcome of a peek: R0 = status, and what the handle could receive now."""

    status: MbxStatus
    depth: int = 0                   # messages this handle could receive now
    bytes_used: int = 0
    next_length: int = 0
    capacity: int = 0
    mode: int = 0


@dataclass(frozen=True)
class StdioHandles:
    """A task's handles for fd 0, 1 and 2."""

    stdin: int
    stdout: int
    stderr: int

    def for_fd(self, fd: int) -> int | None:
        return {0: self.stdin, 1: self.stdout, 2: self.stderr}.get(fd)
