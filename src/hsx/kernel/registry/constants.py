"""Value and command ABI numbers (SVC modules 0x07 and 0x08) shared with guest code.

These are the numbers of `hsx_value.h` / `hsx_command.h`, unchanged from the prior HSX
so compiled apps keep working.  Limits the executive chooses itself (name lengths,
metadata debounce) are here too, each with the reason it has its value.
"""
from __future__ import annotations

import struct
from enum import IntEnum, IntFlag

VAL_MODULE_ID = 0x07
CMD_MODULE_ID = 0x08

GROUP_ALL = 0xFF              # "every group" in LIST; never a real group
DESC_END = 0xFFFF             # `next` of the last descriptor in a chain
DEFAULT_MAX_VALUES = 256      # header defaults; the executive's profile decides
DEFAULT_MAX_COMMANDS = 256

NAME_MAX = 63                 # bytes of a value/command/group name or unit (UTF-8)
HELP_MAX = 255                # bytes of a command's help text
PERSIST_KEY_MIN = 0x0001      # 0 means "not persistent"
PERSIST_KEY_MAX = 0xFFFE      # 0xFFFF is reserved for the store's own records
# `.value` records cannot carry a debounce, and an un-debounced value that changes on
# every loop iteration would commit to disk on every change: metadata values get this.
METADATA_DEBOUNCE_MS = 100

# A subscriber's notification: oid, old f16 bits, new f16 bits (6 bytes, little-endian).
NOTIFY = struct.Struct("<HHH")
# An async command's completion message: oid, status, u32 result (8 bytes, little-endian).
COMPLETION = struct.Struct("<HHI")
# The binary mailbox LIST writes: one u16 OID per entry.
LIST_ENTRY = struct.Struct("<H")


class ValStatus(IntEnum):
    """R0 of every VALUE SVC."""

    OK = 0
    ENOENT = 1
    EPERM = 2
    ENOSPC = 3
    EINVAL = 4
    EEXIST = 5
    EBUSY = 6                 # rate limited


class CmdStatus(IntEnum):
    """R0 of every COMMAND SVC, and the status of a completed call."""

    OK = 0
    ENOENT = 1
    EPERM = 2
    ENOSPC = 3
    EINVAL = 4
    EEXIST = 5
    ENOASYNC = 6              # CALL_ASYNC on a command without the ASYNC flag
    EFAIL = 7                 # the handler failed, or there is no handler to run


class ValFlag(IntFlag):
    RO = 0x01                 # only the owner may set it
    PERSIST = 0x02            # restored at registration, changes saved to the store
    STICKY = 0x04             # reserved: stored and reported, no effect
    PIN = 0x08                # others must present the executive's PIN to set it
    BOOL = 0x10               # stored as 0.0 or 1.0


VAL_FLAGS_ALL = 0x1F


class CmdFlag(IntFlag):
    PIN = 0x01                # every caller, the owner included, must present the PIN
    ASYNC = 0x02              # may be called with CALL_ASYNC


CMD_FLAGS_ALL = 0x03


class Auth(IntEnum):
    """What a caller is trusted with; an entry's level is the minimum a non-owner needs."""

    PUBLIC = 0
    USER = 1
    ADMIN = 2
    FACTORY = 3


class PersistMode(IntEnum):
    """VAL_PERSIST's R2: what the store does for a value."""

    VOLATILE = 0              # neither restored nor saved
    LOAD = 1                  # restored, changes not saved
    SAVE = 2                  # restored and changes saved (the PERSIST flag)


class ValFn(IntEnum):
    REGISTER = 0
    LOOKUP = 1
    GET = 2
    SET = 3
    LIST = 4
    SUB = 5
    PERSIST = 6


class CmdFn(IntEnum):
    REGISTER = 0
    LOOKUP = 1
    CALL = 2
    CALL_ASYNC = 3
    HELP = 4


class DescType(IntEnum):
    """Type byte of a descriptor node in a REGISTER chain."""

    GROUP = 0x01
    NAME = 0x02
    UNIT = 0x03
    RANGE = 0x04
    PERSIST = 0x05
    CMD_NAME = 0x10


# VAL_LIST extension: R1 bit 8 lists every value the caller may read, not only its own.
LIST_VISIBLE = 0x100
# CMD_REGISTER extension: R3 bit 7 says R5 holds the handler's code address.  A flag
# rather than "R5 != 0" because old apps leave junk in R5.
CMD_REGISTER_HANDLER = 0x80


def make_oid(group: int, ident: int) -> int:
    return (group << 8) | ident


def split_oid(oid: int) -> tuple[int, int]:
    return oid >> 8, oid & 0xFF
