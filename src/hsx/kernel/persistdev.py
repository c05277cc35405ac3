"""Non-volatile memory under the value store: FRAM and NOR flash, as image files.

The same operations as the C executive's `hsx_persist` (port/c/hsx_hal.h): a
byte-addressed device of `size` bytes with an erase unit of `page_size` bytes (1: no
erase, FRAM).  The images program a byte at a time, as the parts do, so a process killed
mid-write leaves a torn record exactly as a power cut would; the value store
(registry/logstore.py) is built to survive that.
"""
from __future__ import annotations

import os
from typing import Protocol

ERASED = 0xFF
ERASE_CHUNK = 64              # a page erase also stops part-way when the power goes


class PersistDevice(Protocol):
    location: str
    path: str                 # the image file
    size: int
    page_size: int            # erase unit in bytes; 1 = FRAM (no erase)

    def read(self, addr: int, length: int) -> bytes: ...
    def write(self, addr: int, data: bytes) -> None: ...
    def erase(self, page_addr: int) -> None: ...
    def sync(self) -> None: ...
    def close(self) -> None: ...


class _ImageFile:
    """A device image: created full of 0xFF (erased) when missing, its size checked."""

    page_size = 1
    kind = "image"

    def __init__(self, path: str | os.PathLike[str], size: int, *, fsync: bool = True) -> None:
        self.path = os.fspath(path)
        self.fsync = fsync
        self.location = f"{self.kind}:{self.path}"
        self.size = size
        if not os.path.exists(self.path):
            with open(self.path, "wb") as image:
                image.write(bytes([ERASED]) * size)
                image.flush()
                os.fsync(image.fileno())
        self._fd = os.open(self.path, os.O_RDWR)
        actual = os.fstat(self._fd).st_size
        if actual != size:
            os.close(self._fd)
            raise OSError(f"{self.path} holds {actual} bytes, but the {self.kind} is configured "
                          f"with {size}")

    def read(self, addr: int, length: int) -> bytes:
        self._check(addr, length)
        return os.pread(self._fd, length, addr)

    def write(self, addr: int, data: bytes) -> None:
        self._check(addr, len(data))
        for offset, byte in enumerate(self._programmed(addr, data)):
            os.pwrite(self._fd, bytes((byte,)), addr + offset)

    def _programmed(self, addr: int, data: bytes) -> bytes:
        return data

    def erase(self, page_addr: int) -> None:
        raise OSError(f"{self.path}: FRAM has no erase")

    def sync(self) -> None:
        """Make what was written survive an operating system crash too (a process that
        is killed loses nothing written: the writes are already in the OS)."""
        if self.fsync:
            os.fsync(self._fd)

    def close(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1

    def _check(self, addr: int, length: int) -> None:
        if addr < 0 or length < 0 or addr + length > self.size:
            raise OSError(f"{self.path}: bytes {addr}..{addr + length} are beyond its {self.size}")


class FramImage(_ImageFile):
    """FRAM: any byte can be rewritten, no erase, practically no wear (10^14 writes)."""

    kind = "fram"


class FlashImage(_ImageFile):
    """NOR flash: a write can only clear bits, an erase sets a whole page to 0xFF.  A
    write that would need to set a bit is a bug in the caller and raises ValueError."""

    kind = "flash"

    def __init__(self, path: str | os.PathLike[str], size: int, page_size: int = 4096, *,
                 fsync: bool = True) -> None:
        if page_size < 64 or page_size & (page_size - 1) or size % page_size:
            raise ValueError(f"flash page size {page_size} must be a power of two of at least "
                             f"64 that divides the size {size}")
        self.page_size = page_size
        super().__init__(path, size, fsync=fsync)

    def _programmed(self, addr: int, data: bytes) -> bytes:
        old = self.read(addr, len(data))
        if any(new & ~was & 0xFF for new, was in zip(data, old)):
            raise ValueError(f"{self.path}: a write at 0x{addr:x} needs an erase first")
        return data

    def erase(self, page_addr: int) -> None:
        if page_addr % self.page_size:
            raise ValueError(f"0x{page_addr:x} is not the start of a page")
        self._check(page_addr, self.page_size)
        for offset in range(0, self.page_size, ERASE_CHUNK):
            os.pwrite(self._fd, bytes([ERASED]) * ERASE_CHUNK, page_addr + offset)
