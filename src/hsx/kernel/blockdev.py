"""The `BlockDevice` interface under a FAT file system, and an image file behind it.

On a board the SPI SD card driver sits behind the same operations (port/c/hsx_hal.h,
`hsx_block_device`).  Blocks are 512 bytes; an error is an OSError (the file system turns
it into -EIO for the one call that hit it).

`begin` and `commit` bracket the writes of one file-system call.  An image file makes
them atomic with a journal beside it (IMAGE.journal): the blocks go to the journal first,
then to the image, so a cut at any moment leaves either the call's blocks or none of
them once the journal is replayed -- which opening the image does.  A device that cannot
(an SD card) writes through.
"""
from __future__ import annotations

import os
import struct
import zlib
from typing import Protocol

SECTOR = 512
JOURNAL_MAGIC = b"HSXJRNL1"
_ENTRY = struct.Struct("<Q")


class BlockDevice(Protocol):
    location: str
    block_size: int
    block_count: int

    def read(self, lba: int, count: int = 1) -> bytes: ...
    def write(self, lba: int, data: bytes) -> None: ...
    def sync(self) -> None: ...
    def begin(self) -> None: ...
    def commit(self) -> None: ...
    def close(self) -> None: ...


class ImageBlockDevice:
    """An SD card image: a file of 512-byte blocks, with a journal for atomic calls."""

    block_size = SECTOR

    def __init__(self, path: str | os.PathLike[str], *, create_size: int | None = None) -> None:
        self.path = os.fspath(path)
        self.location = self.path
        self.journal = self.path + ".journal"
        self._pending: dict[int, bytes] | None = None     # the open transaction's blocks
        if create_size is not None:                 # a new image: an old journal is not its
            if os.path.exists(self.journal):
                os.unlink(self.journal)
            with open(self.path, "wb") as image:
                image.truncate(create_size - create_size % SECTOR)
        self._fd = os.open(self.path, os.O_RDWR)
        size = os.fstat(self._fd).st_size
        if size < SECTOR:
            os.close(self._fd)
            raise OSError(f"{self.path}: {size} bytes is no disk image (not even one block)")
        self.block_count = size // SECTOR
        self.replay()

    def read(self, lba: int, count: int = 1) -> bytes:
        self._check(lba, count)
        data = bytearray(os.pread(self._fd, count * SECTOR, lba * SECTOR).ljust(count * SECTOR,
                                                                                b"\0"))
        for block in range(count) if self._pending else ():
            if (lba + block) in self._pending:
                data[block * SECTOR:(block + 1) * SECTOR] = self._pending[lba + block]
        return bytes(data)

    def write(self, lba: int, data: bytes) -> None:
        if len(data) % SECTOR:
            raise ValueError(f"{len(data)} bytes is not a whole number of blocks")
        self._check(lba, len(data) // SECTOR)
        if self._pending is None:
            self._put(self._fd, lba * SECTOR, data)
            return
        for block in range(len(data) // SECTOR):
            self._pending[lba + block] = bytes(data[block * SECTOR:(block + 1) * SECTOR])

    def sync(self) -> None:
        if self._pending is None:               # inside a call, commit makes it durable
            os.fsync(self._fd)

    def begin(self) -> None:
        self._pending = {}

    def commit(self) -> None:
        """Journal the call's blocks, write them to the image, forget the journal."""
        pending, self._pending = self._pending, None
        if not pending:
            return
        blocks = sorted(pending.items())
        entries = b"".join(_ENTRY.pack(lba) + block for lba, block in blocks)
        header = JOURNAL_MAGIC + struct.pack("<II", len(blocks), zlib.crc32(entries))
        journal = os.open(self.journal, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        try:
            self._put(journal, 0, header + entries)
            os.fsync(journal)
        finally:
            os.close(journal)
        self._apply(blocks)

    def replay(self) -> bool:
        """Finish a call a cut interrupted (a whole journal is applied, a torn one was
        never begun on the image); True when there was one to finish."""
        try:
            with open(self.journal, "rb") as journal:
                data = journal.read()
        except FileNotFoundError:
            return False
        blocks = _journal_blocks(data)
        if blocks:
            self._apply(blocks)
        else:
            os.unlink(self.journal)
        return bool(blocks)

    def close(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1

    def _apply(self, blocks: list[tuple[int, bytes]]) -> None:
        for lba, block in blocks:
            self._put(self._fd, lba * SECTOR, block)
        os.fsync(self._fd)
        os.unlink(self.journal)

    def _put(self, fd: int, offset: int, data: bytes) -> None:
        """Every byte hsx writes to the image or its journal goes through here."""
        os.pwrite(fd, data, offset)

    def _check(self, lba: int, count: int) -> None:
        if lba < 0 or lba + count > self.block_count:
            raise OSError(f"{self.path}: blocks {lba}..{lba + count - 1} are beyond the "
                          f"image's {self.block_count}")


def _journal_blocks(data: bytes) -> list[tuple[int, bytes]]:
    """The blocks of a whole, intact journal; [] for a torn or foreign one."""
    head = len(JOURNAL_MAGIC) + 8
    if len(data) < head or not data.startswith(JOURNAL_MAGIC):
        return []
    count, crc = struct.unpack_from("<II", data, len(JOURNAL_MAGIC))
    entries = data[head:]
    if len(entries) != count * (_ENTRY.size + SECTOR) or zlib.crc32(entries) != crc:
        return []
    step = _ENTRY.size + SECTOR
    return [(_ENTRY.unpack_from(entries, i)[0], entries[i + _ENTRY.size:i + step])
            for i in range(0, len(entries), step)]
