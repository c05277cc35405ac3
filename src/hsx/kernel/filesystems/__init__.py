"""File systems for SVC module 0x04: the `FileSystem` interface (api) and its backends --
a host directory (host), FAT12/16/32 on a block device (fat), files over CAN (can)."""
from __future__ import annotations

from .api import (FIRST_FD, LEGACY_OPEN, O_APPEND, O_CREAT, O_RDONLY, O_RDWR, O_TRUNC, O_WRONLY,
                  SEEK_CUR, SEEK_END, SEEK_SET, FileSystem)
from .host import SandboxError, SandboxFS

EXECUTIVE_PID = 0             # the executive's own descriptors (EXEC SPAWN reading an image)
READ_CHUNK = 0xFFFF


def read_file(fs: FileSystem, path: str) -> bytes | int:
    """A whole file through the interface (what EXEC SPAWN loads), or a negative errno."""
    fd = fs.open(EXECUTIVE_PID, path, O_RDONLY)
    if fd < 0:
        return fd
    chunks = []
    try:
        while True:
            chunk = fs.read(EXECUTIVE_PID, fd, READ_CHUNK)
            if isinstance(chunk, int):
                return chunk
            if not chunk:
                return b"".join(chunks)
            chunks.append(chunk)
    finally:
        fs.close(EXECUTIVE_PID, fd)


__all__ = ["FIRST_FD", "LEGACY_OPEN", "O_APPEND", "O_CREAT", "O_RDONLY", "O_RDWR", "O_TRUNC",
           "O_WRONLY", "SEEK_CUR", "SEEK_END", "SEEK_SET", "FileSystem", "SandboxError",
           "SandboxFS", "read_file"]
