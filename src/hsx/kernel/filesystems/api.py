"""The `FileSystem` interface behind SVC module 0x04, and what its implementations share.

The executive's file SVCs call exactly these methods; the C executive's `hsx_fs` struct
(port/c/hsx_hal.h) has the same operations.  Results follow the SVC convention: a
non-negative count, descriptor or position, or a negative errno -- an implementation
never raises for a guest's mistake or a device error; it fails that one call.

Paths are the guest's: '/'-separated, a leading '/' or none both mean the file system's
root, '.' and '..' are resolved here, and a path that climbs above the root is refused
with -EINVAL (as is a drive letter or URL: anything with ':').
"""
from __future__ import annotations

import errno
from dataclasses import dataclass, field
from typing import Generic, Iterator, Protocol, TypeVar

# Open flags (include/hsx_fs.h).  0 keeps the prior behaviour: read/write, create.
O_RDONLY, O_WRONLY, O_RDWR, O_CREAT, O_TRUNC, O_APPEND = 0x01, 0x02, 0x03, 0x04, 0x08, 0x10
LEGACY_OPEN = O_RDWR | O_CREAT
FIRST_FD = 3                  # 0, 1, 2 are stdio, served by mailboxes
SEEK_SET, SEEK_CUR, SEEK_END = 0, 1, 2
ETIMEDOUT = errno.ETIMEDOUT   # 110: a remote file system did not answer in time


class FileSystem(Protocol):
    """What SVC module 0x04 needs.  Descriptors are per task (`pid`)."""

    location: str             # for people: "/srv/sandbox", "fat:card.img", "can:hsx"

    def open(self, pid: int, path: str, flags: int = 0) -> int: ...
    def read(self, pid: int, fd: int, length: int) -> bytes | int: ...
    def write(self, pid: int, fd: int, data: bytes) -> int: ...
    def seek(self, pid: int, fd: int, offset: int, whence: int) -> int: ...
    def close(self, pid: int, fd: int) -> int: ...
    def listdir(self, path: str = "/") -> bytes | int: ...
    def delete(self, path: str) -> int: ...
    def rename(self, old: str, new: str) -> int: ...
    def mkdir(self, path: str) -> int: ...
    def release_task(self, pid: int) -> None: ...
    def shutdown(self) -> None: ...


def access_of(flags: int) -> tuple[int, bool, bool]:
    """(flags with the legacy 0 expanded, readable, writable) for OPEN's flags."""
    flags = flags or LEGACY_OPEN
    access = flags & O_RDWR or O_RDWR
    return flags, bool(access & O_RDONLY), bool(access & O_WRONLY)


def normalize(guest_path: str) -> str | None:
    """The path as '/a/b' below the root ('/' for the root itself), or None when it is
    malformed or climbs out: ':' (drive letters, URLs), a NUL, '..' above the root."""
    text = guest_path.replace("\\", "/").strip()
    if ":" in text or "\0" in text:
        return None
    parts: list[str] = []
    for part in text.split("/"):
        if part in ("", "."):
            continue
        if part == "..":
            if not parts:
                return None
            parts.pop()
        else:
            parts.append(part)
    return "/" + "/".join(parts)


def listing(entries: Iterator[tuple[str, bool]]) -> bytes:
    """LISTDIR's answer: sorted names, directories ending in '/', separated by '\\n'."""
    return "\n".join(sorted(name + ("/" if is_dir else "") for name, is_dir in entries)).encode()


H = TypeVar("H")


@dataclass
class _Table(Generic[H]):
    """One task's open descriptors and the next number to give."""

    handles: dict[int, H] = field(default_factory=dict)
    next_fd: int = FIRST_FD


class Descriptors(Generic[H]):
    """Per-task descriptor tables: fds from 3, at most `limit` open per task."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._tasks: dict[int, _Table[H]] = {}

    def full(self, pid: int) -> bool:
        return self.count(pid) >= self.limit

    def add(self, pid: int, handle: H) -> int:
        table = self._tasks.setdefault(pid, _Table())
        fd = table.next_fd
        table.next_fd += 1
        table.handles[fd] = handle
        return fd

    def get(self, pid: int, fd: int) -> H | None:
        table = self._tasks.get(pid)
        return table.handles.get(fd) if table else None

    def pop(self, pid: int, fd: int) -> H | None:
        table = self._tasks.get(pid)
        return table.handles.pop(fd, None) if table else None

    def count(self, pid: int) -> int:
        table = self._tasks.get(pid)
        return len(table.handles) if table else 0

    def release(self, pid: int) -> list[H]:
        """Forget a task's table; its handles, for the caller to close."""
        table = self._tasks.pop(pid, None)
        return list(table.handles.values()) if table else []

    def all(self) -> list[H]:
        return [h for table in self._tasks.values() for h in table.handles.values()]
