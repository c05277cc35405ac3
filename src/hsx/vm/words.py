"""32-bit little-endian word views over a bytearray: registers and aligned memory words.

On a little-endian host `memoryview(...).cast('I')` indexes like a list of ints and
shares the bytes, so registers *are* task memory at no cost. Big-endian (or exotic
'I' sizes) get a slower view with the same interface.
"""
from __future__ import annotations

import struct
import sys

_U32 = struct.Struct("<I")


class LittleEndianWords:
    """Portable fallback: `view[i]` is the little-endian u32 at byte offset start + 4*i."""

    __slots__ = ("_mem", "_start", "_count")

    def __init__(self, mem: bytearray, start: int, count: int) -> None:
        self._mem, self._start, self._count = mem, start, count

    def __len__(self) -> int:
        return self._count

    def _offset(self, index: int) -> int:
        if not 0 <= index < self._count:
            raise IndexError(index)
        return self._start + 4 * index

    def __getitem__(self, index: int) -> int:
        return _U32.unpack_from(self._mem, self._offset(index))[0]

    def __setitem__(self, index: int, value: int) -> None:
        _U32.pack_into(self._mem, self._offset(index), value)

    def tolist(self) -> list[int]:
        return [self[i] for i in range(self._count)]


NATIVE = sys.byteorder == "little" and struct.calcsize("I") == 4


def word_view(mem: bytearray, start: int, count: int):
    """A view of `count` u32 words at byte offset `start` (4-aligned) of `mem`."""
    if NATIVE:
        return memoryview(mem)[start:start + 4 * count].cast("I")
    return LittleEndianWords(mem, start, count)
