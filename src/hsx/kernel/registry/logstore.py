"""A `PersistenceStore` on FRAM or flash (a `PersistDevice`): the C executive's value log.

The on-media format is the one port/c/hsx_store.c writes, so an image written by either
executive is read by the other (docs/backends.md has the byte layout).  The device is cut
into pages (a flash page; 256 bytes on FRAM, which has none) of 16-byte slots used as a
ring: slot 0 of a page in the log is its header, the others hold CRC-checked records, each
one value.  Records are only ever written into erased slots, so a cut leaves at most the
record being written torn, which its CRC rejects, and nothing older is touched.  The page
after the head is kept erased: when the head fills, the log moves into it and the page
after that -- the oldest -- has its still-current records copied forward before it is
erased, so every page is erased in turn (wear levelling by rotation).
"""
from __future__ import annotations

import struct
import zlib

from hsx.kernel.persistdev import ERASED, PersistDevice

from .store import DebouncedStore, PersistError, PersistKey

SLOT = 16
PAGE_MAGIC = 0x56585348        # "HSXV"
FRAM_PAGE = 256                # the log's page on a device without erase
APP_NAME_MAX = 32              # hsx_config.h: bytes of an app name with its NUL
BLANK = bytes([ERASED]) * SLOT
_RECORD = struct.Struct("<IHHI")           # app, key, raw, sequence (+ crc)


def app_id(app: str) -> int:
    """How a record names its app: the CRC-32 of the app's base name (as hsx_values.c)."""
    return zlib.crc32(app.encode("utf-8")[:APP_NAME_MAX - 1])


def newer(a: int, b: int) -> bool:
    """Sequence numbers compare as serial numbers: they may wrap around 2^32."""
    return 0 < (a - b) & 0xFFFFFFFF < 0x80000000


def encode_record(app: int, key: int, raw: int, sequence: int) -> bytes:
    body = _RECORD.pack(app, key, raw, sequence)
    return body + struct.pack("<I", zlib.crc32(body))


def decode_record(slot: bytes) -> tuple[int, int, int, int] | None:
    """(app, key, raw, sequence) of an intact record; None for an erased or torn slot."""
    if slot == BLANK or zlib.crc32(slot[:12]) != struct.unpack_from("<I", slot, 12)[0]:
        return None
    return _RECORD.unpack_from(slot)


class LogStore(DebouncedStore):
    def __init__(self, device: PersistDevice, location: str | None = None) -> None:
        super().__init__()
        self.device: PersistDevice | None = device
        self.location = location or device.location
        self.path = device.path
        self.page_size = device.page_size if device.page_size > 1 else FRAM_PAGE
        self.slots = self.page_size // SLOT
        self.pages = device.size // self.page_size
        if self.page_size % SLOT or self.pages < 2:
            raise PersistError(f"{self.location}: {device.size} bytes hold fewer than two "
                               f"{self.page_size}-byte pages of 16-byte slots")
        # (app id, key) -> (sequence, raw, page) of the newest record
        self._newest: dict[tuple[int, int], tuple[int, int, int]] = {}
        try:
            self._mount()
        except OSError as error:
            raise PersistError(f"{self.location}: {error}") from None

    # -- DebouncedStore ---------------------------------------------------------------------
    @property
    def closed(self) -> bool:
        return self.device is None

    def _stored(self, key: PersistKey) -> int | None:
        found = self._newest.get((app_id(key.app), key.key))
        return None if found is None else found[1]

    def _close(self) -> None:
        if self.device is not None:
            self.device.close()
            self.device = None

    def _commit(self, records: dict[PersistKey, int]) -> None:
        """One record per value, in order; a cut loses the record being written (and the
        ones after it), never one written before."""
        if self.device is None:
            raise PersistError(f"value store {self.location} is closed")
        try:
            for key, raw in records.items():
                self._append(app_id(key.app), key.key, raw)
            self.device.sync()
        except OSError as error:
            raise PersistError(f"{self.location}: {error}") from None

    # -- pages and slots -------------------------------------------------------------------------
    def _slot(self, page: int, slot: int) -> bytes:
        return self.device.read(page * self.page_size + slot * SLOT, SLOT)

    def _page_sequence(self, page: int) -> int:
        """The page's sequence number when its header is intact; 0: not in the log."""
        header = self._slot(page, 0)
        magic, sequence, crc = struct.unpack_from("<III", header)
        return sequence if magic == PAGE_MAGIC and crc == zlib.crc32(header[:8]) else 0

    def _records(self, page: int):
        data = self.device.read(page * self.page_size, self.page_size)
        for slot in range(1, self.slots):
            record = decode_record(data[slot * SLOT:(slot + 1) * SLOT])
            if record is not None:
                yield slot, record

    def _erase(self, page: int) -> None:
        if self.device.page_size > 1:
            self.device.erase(page * self.page_size)
        else:
            for slot in range(self.slots):
                self.device.write(page * self.page_size + slot * SLOT, BLANK)

    def _clean(self, page: int) -> None:
        """Erase the page unless it already is (erasing wears it)."""
        if self.device.read(page * self.page_size, self.page_size) != BLANK * self.slots:
            self._erase(page)

    def _write_header(self, page: int, sequence: int) -> None:
        head = struct.pack("<II", PAGE_MAGIC, sequence)
        self.device.write(page * self.page_size,
                          head + struct.pack("<II", zlib.crc32(head), 0xFFFFFFFF))

    # -- the log -------------------------------------------------------------------------------------
    def _mount(self) -> None:
        self.head, self.head_sequence, self.next_sequence = 0, 0, 1
        for page in range(self.pages):
            sequence = self._page_sequence(page)
            if not sequence:
                continue
            if not self.head_sequence or newer(sequence, self.head_sequence):
                self.head, self.head_sequence = page, sequence
            for _slot, (app, key, raw, record_sequence) in self._records(page):
                if not newer(self.next_sequence, record_sequence):
                    self.next_sequence = (record_sequence + 1) & 0xFFFFFFFF
                self._remember(app, key, raw, record_sequence, page)
        if not self.head_sequence:                       # a new store
            self.head, self.head_sequence = 0, 1
            self._clean(0)
            self._write_header(0, 1)
        self.append_slot = self.slots
        while self.append_slot > 1 and self._slot(self.head, self.append_slot - 1) == BLANK:
            self.append_slot -= 1
        following = (self.head + 1) % self.pages
        if following != self.head and self._page_sequence(following):
            self._collect(following)                     # a move the last cut stopped

    def _remember(self, app: int, key: int, raw: int, sequence: int, page: int) -> None:
        known = self._newest.get((app, key))
        if known is None or newer(sequence, known[0]):
            self._newest[(app, key)] = (sequence, raw, page)

    def _append(self, app: int, key: int, raw: int) -> None:
        if self.append_slot >= self.slots:
            self._next_page()
        sequence = self.next_sequence
        self.device.write(self.head * self.page_size + self.append_slot * SLOT,
                          encode_record(app, key, raw, sequence))
        self.append_slot += 1
        self.next_sequence = (sequence + 1) & 0xFFFFFFFF
        self._newest[(app, key)] = (sequence, raw, self.head)

    def _next_page(self) -> None:
        """The head is full: the log moves into the erased page after it."""
        page = (self.head + 1) % self.pages
        if self._page_sequence(page):
            raise PersistError(f"{self.location} is full: more distinct values than one page "
                               f"holds")
        self._clean(page)
        self._write_header(page, (self.head_sequence + 1) & 0xFFFFFFFF)
        self.head, self.head_sequence = page, (self.head_sequence + 1) & 0xFFFFFFFF
        self.append_slot = 1
        following = (self.head + 1) % self.pages
        if following != self.head and self._page_sequence(following):
            self._collect(following)

    def _collect(self, victim: int) -> None:
        """Copy the oldest page's records that are still the newest of their value to the
        head, then erase it: it becomes the erased page after the head."""
        records = list(self._records(victim))
        for index, (_slot, (app, key, raw, sequence)) in enumerate(records):
            superseded = any((a, k) == (app, key) for _s, (a, k, _r, _q) in records[index + 1:])
            newest = self._newest.get((app, key))
            if superseded or (newest is not None and newest[2] != victim):
                continue
            if self.append_slot >= self.slots:
                raise PersistError(f"{self.location} is full: more distinct values than one "
                                   f"page holds")
            self._append(app, key, raw)
        self._erase(victim)
