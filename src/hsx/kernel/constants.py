"""Mailbox ABI numbers (SVC module 0x05) shared with guest code.

These values are what compiled apps and `include/hsx_mailbox.h` use, so they carry
over unchanged from the prior HSX.  Codes 8 and 9 are HSX extensions for errors the
prior implementation reported as INTERNAL_ERROR (or crashed on); 6 stays unused
because an old design table gave it a different meaning.
"""
from __future__ import annotations

import struct
from enum import IntEnum, IntFlag

MODULE_ID = 0x05
MAX_NAME_BYTES = 32          # the name part of a target, without prefix or @pid
MAX_PREFIX_BYTES = 8
DEFAULT_CAPACITY = 64        # bytes, used when BIND passes capacity 0
MAX_CAPACITY = 0xFFFF        # capacity is a u16 in the BIND ABI
MESSAGE_HEADER_BYTES = 8     # hsx_mbx_msg_header_t: u16 len, flags, src_pid, channel
MAX_PAYLOAD = 0xFFFF         # the header's len field is a u16


class MbxStatus(IntEnum):
    """Status returned in R0 by every mailbox SVC."""

    OK = 0x00
    WOULDBLOCK = 0x01
    INVALID_HANDLE = 0x02
    NO_DATA = 0x03
    MSG_TOO_LARGE = 0x04
    NO_DESCRIPTOR = 0x05
    TIMEOUT = 0x07
    INVALID_ARGUMENT = 0x08  # extension: malformed target, mode, capacity, flags or channel
    ACCESS_DENIED = 0x09     # extension: the handle or descriptor does not allow this direction
    INTERNAL_ERROR = 0xFF


class MbxMode(IntFlag):
    """Mode bits: access bits for OPEN flags and BIND modes, delivery bits for BIND."""

    RDONLY = 0x01
    WRONLY = 0x02
    RDWR = 0x03
    TAP = 0x04
    FANOUT = 0x08
    FANOUT_DROP = 0x10
    FANOUT_BLOCK = 0x20


ACCESS_MASK = MbxMode.RDWR
MODE_MASK = 0x3F             # every defined BIND mode bit


class MbxFlag(IntFlag):
    """Message flags carried in the header and returned in R2."""

    STDOUT = 0x0001
    STDERR = 0x0002
    OOB = 0x0004
    OVERRUN = 0x0008         # set by the executive only: messages were lost before this one


class MbxNamespace(IntEnum):
    PID = 0
    SVC = 1
    APP = 2
    SHARED = 3

    @property
    def prefix(self) -> str:
        return f"{self.name.lower()}:"


class MbxTimeout(IntEnum):
    """RECV timeout values with a special meaning; others are milliseconds."""

    POLL = 0x0000
    INFINITE = 0xFFFF


class MbxFn(IntEnum):
    """Function numbers of SVC module 0x05."""

    OPEN = 0x00
    BIND = 0x01
    SEND = 0x02
    RECV = 0x03
    PEEK = 0x04
    TAP = 0x05
    CLOSE = 0x06
    SEND_WAIT = 0x07      # HSX extension: SEND that waits for room (timeout in R0)


STDIO_IN = "svc:stdio.in"
STDIO_OUT = "svc:stdio.out"
STDIO_ERR = "svc:stdio.err"

# RECV's optional info block (R5): int32 status, int32 length, u32 flags, u32 channel, u32 src_pid.
RECV_INFO = struct.Struct("<iiIII")
RECV_INFO_SIZE = RECV_INFO.size
