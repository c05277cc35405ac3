"""A `PersistenceStore` on FRAM or flash (a `PersistDevice`): a log of CRC-checked records.

The device is cut into sectors (a flash page; 256 bytes on FRAM, which has no pages) and
used as a circular log: records are appended, never changed in place, and the oldest
sector is reclaimed -- its still-current records copied to the head, then erased -- when
room runs short.  Sectors are taken least-erased first, so wear is spread over the device
(each sector's erase count is in its header).  A commit is a batch of records; a record
says whether its batch goes on, and a batch counts only once its last record is whole,
so a cut anywhere loses at most the batch being written.  docs/backends.md has the byte
layout (the C executive's store reads the same images).
"""
from __future__ import annotations

import struct
import zlib
from dataclasses import dataclass

from hsx.kernel.persistdev import ERASED, PersistDevice

from .store import DebouncedStore, PersistError, PersistKey

MAGIC = b"HSXV"
HEADER = 20                   # magic, erase count, crc | sequence, crc
FREE = 0xFFFFFFFF             # the sequence of a formatted sector not in the log
FRAM_SECTOR = 256
TAG_MORE, TAG_LAST = 0xA4, 0xA5
RECORD_FIXED = 12             # tag, name length, batch, key, raw ... crc
_RECORD = struct.Struct("<BBHHH")


@dataclass
class _Sector:
    index: int
    erase_count: int | None   # None: no readable header
    sequence: int | None      # None: not in the log
    end: int = HEADER         # where the next record goes (the sector size: full)


def encode_record(last: bool, batch: int, key: PersistKey, raw: int) -> bytes:
    app = key.app.encode("utf-8")
    if not 1 <= len(app) <= 255:
        raise PersistError(f"app name {key.app!r} must be 1..255 bytes to be stored")
    body = _RECORD.pack(TAG_LAST if last else TAG_MORE, len(app), batch & 0xFFFF, key.key,
                        raw) + app
    return body + struct.pack("<I", zlib.crc32(body))


def decode_records(data: bytes, offset: int):
    """(last, batch, key, raw, size) for each whole record from `offset`, up to the first
    blank or damaged one; the generator's return value is where it stopped."""
    while offset + RECORD_FIXED <= len(data):
        tag, length, batch, key, raw = _RECORD.unpack_from(data, offset)
        size = RECORD_FIXED + length
        if tag not in (TAG_MORE, TAG_LAST) or not length or offset + size > len(data):
            break
        body = data[offset:offset + size - 4]
        if zlib.crc32(body) != struct.unpack_from("<I", data, offset + size - 4)[0]:
            break
        try:
            app = body[8:].decode("utf-8")
        except UnicodeDecodeError:
            break
        yield tag == TAG_LAST, batch, PersistKey(app, key), raw, size
        offset += size
    return offset


class LogStore(DebouncedStore):
    def __init__(self, device: PersistDevice, location: str | None = None) -> None:
        super().__init__()
        self.device: PersistDevice | None = device
        self.location = location or device.location
        self.path = device.path
        self.sector_size = device.page_size if device.page_size > 1 else FRAM_SECTOR
        self.count = device.size // self.sector_size
        if self.count < 2:
            raise PersistError(f"{self.location}: {device.size} bytes hold fewer than two "
                               f"{self.sector_size}-byte sectors (the log needs a spare)")
        self._values: dict[PersistKey, tuple[int, int]] = {}    # key -> (raw, sector)
        self._head: _Sector | None = None
        self._batch = 0
        try:
            self._sectors = [self._header(i) for i in range(self.count)]
            self._replay()
        except OSError as error:
            raise PersistError(f"{self.location}: {error}") from None

    # -- DebouncedStore ---------------------------------------------------------------------
    @property
    def closed(self) -> bool:
        return self.device is None

    def _stored(self, key: PersistKey) -> int | None:
        found = self._values.get(key)
        return None if found is None else found[0]

    def _close(self) -> None:
        if self.device is not None:
            self.device.close()
            self.device = None

    def _commit(self, records: dict[PersistKey, int]) -> None:
        if self.device is None:
            raise PersistError(f"value store {self.location} is closed")
        items = list(records.items())

        def encoded() -> list[bytes]:
            return [encode_record(i == len(items) - 1, self._batch, key, raw)
                    for i, (key, raw) in enumerate(items)]
        try:
            self._make_room(encoded())
            placed = [self._append(record) for record in encoded()]  # after any copies
            self.device.sync()
        except OSError as error:
            raise PersistError(f"{self.location}: {error}") from None
        self._batch = (self._batch + 1) & 0xFFFF
        for (key, raw), sector in zip(items, placed):
            self._values[key] = (raw, sector)

    # -- what tests and `hsx` show -----------------------------------------------------------
    def erase_counts(self) -> list[int]:
        return [s.erase_count or 0 for s in self._sectors]

    # -- reading the log ----------------------------------------------------------------------
    def _header(self, index: int) -> _Sector:
        data = self.device.read(index * self.sector_size, HEADER)
        magic, erases, crc_a, sequence, crc_b = struct.unpack("<4sIIII", data)
        if magic != MAGIC or zlib.crc32(data[:8]) != crc_a:
            return _Sector(index, None, None)
        if sequence == FREE or zlib.crc32(data[12:16]) != crc_b:
            return _Sector(index, erases, None)
        return _Sector(index, erases, sequence)

    def _replay(self) -> None:
        """Rebuild the values from the log, oldest sector first; a batch whose last record
        is missing (a cut) is dropped, whatever follows it."""
        pending: list[tuple[PersistKey, int, int]] = []
        pending_batch = last_batch = None
        active = sorted((s for s in self._sectors if s.sequence is not None),
                        key=lambda s: s.sequence)
        for sector in active:
            data = self.device.read(sector.index * self.sector_size, self.sector_size)
            records = decode_records(data, HEADER)
            while True:
                try:
                    last, batch, key, raw, _size = next(records)
                except StopIteration as stop:
                    sector.end = stop.value
                    break
                if batch != pending_batch:
                    pending = []                  # an earlier batch was cut short
                pending.append((key, raw, sector.index))
                pending_batch = last_batch = batch
                if last:
                    for done_key, done_raw, where in pending:
                        self._values[done_key] = (done_raw, where)
                    pending, pending_batch = [], None
            if data[sector.end:] != bytes([ERASED]) * (self.sector_size - sector.end):
                sector.end = self.sector_size     # a torn record: nothing more goes here
        self._head = active[-1] if active else None
        if last_batch is not None:
            self._batch = (last_batch + 1) & 0xFFFF

    # -- writing it ------------------------------------------------------------------------------
    def _append(self, record: bytes) -> int:
        if self._head is None or self._head.end + len(record) > self.sector_size:
            self._open_sector()
        head = self._head
        self.device.write(head.index * self.sector_size + head.end, record)
        head.end += len(record)
        return head.index

    def _free(self) -> list[_Sector]:
        return [s for s in self._sectors if s.sequence is None]

    def _sectors_needed(self, encoded: list[bytes]) -> int:
        room = self.sector_size - self._head.end if self._head else 0
        needed = 0
        for record in encoded:
            if len(record) > room:
                needed += 1
                room = self.sector_size - HEADER
            room -= len(record)
        return needed

    def _make_room(self, encoded: list[bytes]) -> None:
        """Reclaim old sectors until the batch fits and one sector is still spare."""
        for _ in range(self.count + 1):
            if len(self._free()) >= self._sectors_needed(encoded) + 1:
                return
            self._reclaim_oldest()
        raise PersistError(f"{self.location} is full: the values stored do not fit in "
                           f"{self.device.size} bytes")

    def _reclaim_oldest(self) -> None:
        active = sorted((s for s in self._sectors if s.sequence is not None and s is not self._head),
                        key=lambda s: s.sequence)
        if not active:
            return
        oldest = active[0]
        current = [(key, raw) for key, (raw, where) in self._values.items()
                   if where == oldest.index]
        for key, raw in current:              # copied forward, each a batch of its own
            self._values[key] = (raw, self._append(encode_record(True, self._batch, key, raw)))
            self._batch = (self._batch + 1) & 0xFFFF
        self.device.sync()
        self._erase(oldest)

    def _open_sector(self) -> None:
        known = max((s.erase_count for s in self._sectors if s.erase_count is not None), default=0)
        start = self._head.index if self._head else -1
        chosen = min(self._free(), key=lambda s: (
            s.erase_count if s.erase_count is not None else known,
            (s.index - start) % self.count))
        base = chosen.index * self.sector_size
        blank = bytes([ERASED]) * (self.sector_size - 12)
        if chosen.erase_count is None and self.device.read(base, self.sector_size) == bytes(
                [ERASED]) * self.sector_size:
            self._write_header_a(chosen, known)             # never used: no erase needed
        elif chosen.erase_count is None or self.device.read(base + 12, self.sector_size - 12) != blank:
            self._erase(chosen, known)
        sequence = max((s.sequence for s in self._sectors if s.sequence is not None), default=0) + 1
        part_b = struct.pack("<I", sequence)
        self.device.write(base + 12, part_b + struct.pack("<I", zlib.crc32(part_b)))
        chosen.sequence, chosen.end = sequence, HEADER
        self._head = chosen

    def _erase(self, sector: _Sector, known: int = 0) -> None:
        count = (sector.erase_count if sector.erase_count is not None else known) + 1
        sector.sequence, sector.erase_count, sector.end = None, None, HEADER
        base = sector.index * self.sector_size
        if self.device.page_size > 1:
            self.device.erase(base)
        else:
            self.device.write(base, bytes([ERASED]) * self.sector_size)
        self._write_header_a(sector, count)
        if sector is self._head:
            self._head = None

    def _write_header_a(self, sector: _Sector, erase_count: int) -> None:
        part_a = MAGIC + struct.pack("<I", erase_count)
        self.device.write(sector.index * self.sector_size, part_a + struct.pack("<I", zlib.crc32(part_a)))
        sector.erase_count = erase_count
