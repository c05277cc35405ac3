"""The `BlockDevice` interface under a FAT file system, and an image file behind it.

On a board the SPI SD card driver sits behind the same operations (port/c/hsx_hal.h,
`hsx_block_device`).  Blocks are 512 bytes; an error is an OSError (the file system turns
it into -EIO for the one call that hit it).
"""
from __future__ import annotations

import os
from typing import Protocol

SECTOR = 512


class BlockDevice(Protocol):
    location: str
    block_size: int
    block_count: int

    def read(self, lba: int, count: int = 1) -> bytes: ...
    def write(self, lba: int, data: bytes) -> None: ...
    def sync(self) -> None: ...
    def close(self) -> None: ...


class ImageBlockDevice:
    """An SD card image: a file of 512-byte blocks.  `sync` makes what was written durable
    (fsync), as a card's write completes."""

    block_size = SECTOR

    def __init__(self, path: str | os.PathLike[str], *, create_size: int | None = None) -> None:
        self.path = os.fspath(path)
        self.location = self.path
        if create_size is not None:
            with open(self.path, "wb") as image:
                image.truncate(create_size - create_size % SECTOR)
        self._fd = os.open(self.path, os.O_RDWR)
        size = os.fstat(self._fd).st_size
        if size < SECTOR:
            os.close(self._fd)
            raise OSError(f"{self.path}: {size} bytes is no disk image (not even one block)")
        self.block_count = size // SECTOR

    def read(self, lba: int, count: int = 1) -> bytes:
        self._check(lba, count)
        data = os.pread(self._fd, count * SECTOR, lba * SECTOR)
        return data.ljust(count * SECTOR, b"\0")

    def write(self, lba: int, data: bytes) -> None:
        if len(data) % SECTOR:
            raise ValueError(f"{len(data)} bytes is not a whole number of blocks")
        self._check(lba, len(data) // SECTOR)
        os.pwrite(self._fd, data, lba * SECTOR)

    def sync(self) -> None:
        os.fsync(self._fd)

    def close(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1

    def _check(self, lba: int, count: int) -> None:
        if lba < 0 or lba + count > self.block_count:
            raise OSError(f"{self.path}: blocks {lba}..{lba + count - 1} are beyond the "
                          f"image's {self.block_count}")
