"""In-memory model of an `.hxe` image and its metadata, shared by reader, writer,
linker and loader.  Byte layouts live in `hxe.py` and `metadata.py`."""
from __future__ import annotations

from dataclasses import dataclass, field

HXE_MAGIC = 0x48535845            # "HSXE"
HEADER_SIZE_V1 = 32
HEADER_SIZE_V2 = 96
RODATA_BASE = 0x4000              # data address where rodata is mapped in a task
# Code: what BR and LCALL reach from anywhere in it (a signed 24-bit word offset spans
# 2**23 words), so every branch and call the tools write reaches its target.
MAX_CODE_LEN = 4 << 23
# Rodata and bss: what the 32-bit data address space holds above RODATA_BASE; whether
# they fit a task's memory (with its stack) is the loader's check.
MAX_RODATA_LEN = (1 << 32) - RODATA_BASE
MAX_BSS_SIZE = (1 << 32) - RODATA_BASE
APP_NAME_MAX = 31

FLAG_MANIFEST = 0x0001
FLAG_ALLOW_MULTIPLE = 0x0002

SECTION_VALUE = 1
SECTION_COMMAND = 2
SECTION_MAILBOX = 3

# Value flags and auth levels (reference ipc §2).
VALUE_FLAGS = {"RO": 0x01, "PERSIST": 0x02, "STICKY": 0x04, "PIN": 0x08, "BOOL": 0x10}
COMMAND_FLAGS = {"PIN": 0x01, "ASYNC": 0x02}
AUTH_LEVELS = {"PUBLIC": 0, "USER": 1, "ADMIN": 2, "FACTORY": 3}
MAILBOX_MODES = {"RDONLY": 0x01, "WRONLY": 0x02, "RDWR": 0x03, "TAP": 0x04, "FANOUT": 0x08,
                 "FANOUT_DROP": 0x10, "FANOUT_BLOCK": 0x20}


@dataclass
class ValueSpec:
    """A `.value` record: a named f16 value an app declares."""

    group: int
    value: int
    flags: int = 0
    auth: int = 0
    init_f16: int = 0
    name: str | None = None
    unit: str | None = None
    epsilon_f16: int = 0
    min_f16: int = 0
    max_f16: int = 0
    persist_key: int = 0
    group_name: str | None = None

    @property
    def oid(self) -> int:
        return (self.group << 8) | self.value


@dataclass
class CommandSpec:
    """A `.cmd` record: a command whose handler is app code at `handler_offset`."""

    group: int
    cmd: int
    flags: int = 0
    auth: int = 0
    handler_offset: int = 0
    name: str | None = None
    help: str | None = None
    group_name: str | None = None
    reserved: int = 0

    @property
    def oid(self) -> int:
        return (self.group << 8) | self.cmd


@dataclass
class MailboxBinding:
    """A task bound to a declared mailbox (`MailboxSpec.bindings`)."""

    pid: int
    flags: int = 0


@dataclass
class MailboxSpec:
    """A `.mailbox` entry: a mailbox bound before the app's first instruction."""

    target: str
    capacity: int = 0             # 0 = executive default
    mode_mask: int = MAILBOX_MODES["RDWR"]
    owner_pid: int | None = None
    bindings: list[MailboxBinding] = field(default_factory=list)


@dataclass
class Metadata:
    """What an image declares for the executive to set up before its first instruction."""

    values: list[ValueSpec] = field(default_factory=list)
    commands: list[CommandSpec] = field(default_factory=list)
    mailboxes: list[MailboxSpec] = field(default_factory=list)
    # Sections of unknown type are kept (type, raw bytes) so nothing is lost.
    unknown_sections: list[tuple[int, bytes]] = field(default_factory=list)

    def is_empty(self) -> bool:
        return not (self.values or self.commands or self.mailboxes or self.unknown_sections)


@dataclass
class HxeImage:
    """A validated executable image.  `code` is big-endian instruction words as bytes."""

    code: bytes
    rodata: bytes = b""
    entry: int = 0
    bss_size: int = 0
    req_caps: int = 0
    flags: int = FLAG_ALLOW_MULTIPLE
    app_name: str | None = None
    metadata: Metadata = field(default_factory=Metadata)
    version: int = 2
    crc: int = 0                  # as read from (or written to) the header
    stack_size: int = 0           # bytes of stack the app asks for; 0: the executive's
    mem_size: int = 0             # bytes of task memory it asks for; 0: the executive's

    @property
    def allow_multiple_instances(self) -> bool:
        return self.version == 1 or bool(self.flags & FLAG_ALLOW_MULTIPLE)

    @property
    def code_words(self) -> list[int]:
        return [int.from_bytes(self.code[i:i + 4], "big") for i in range(0, len(self.code), 4)]
