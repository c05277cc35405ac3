"""Persistent values in the C executive's store (hsx_store.c) on the host board's flash
file: what a task saves is restored after the executive restarts, as `hsx run
--state-dir` restores it; and a power cut -- the executive killed at a random moment,
while a task saves a value as fast as it can and the log moves from page to page --
loses nothing that was acknowledged and corrupts nothing."""
from __future__ import annotations

import os
import random
import re
import signal
import struct
import subprocess
import threading
import time
import zlib

import pytest
from hostkit import ALL_VARIANTS, HERE, build_image, executable, run_host, run_python

from hsx.kernel.registry.logstore import (BLANK, PAGE_MAGIC, SLOT, app_id, decode_record,
                                          encode_record)

OWN = HERE / "programs"


@pytest.fixture(scope="module")
def images(tmp_path_factory):
    out = tmp_path_factory.mktemp("images")
    return {name: build_image(OWN / f"{name}.c", out) for name in ("persist_count", "persist_forever")}


@pytest.mark.parametrize("variant", ALL_VARIANTS)
def test_values_are_restored_after_a_restart(variant, images, tmp_path):
    image = [images["persist_count"]]
    flash, state = tmp_path / "flash.bin", tmp_path / "state"
    for run in range(3):
        expected = run_python(image, tmp_path / "py-root", b"", "--state-dir", str(state))
        got = run_host(variant, image, tmp_path / "c-root", b"", "--persist", str(flash))
        assert got.stdout == expected.stdout, got.stderr
        assert got.status == expected.status == 0
    # the declared value is debounced (written when the executive exits), the other at once
    assert b"restored 0x000a and 0x000a" in got.stdout


def _saved(text: str) -> int | None:
    """The last count the task acknowledged (complete lines only)."""
    counts = re.findall(r"^saved ([0-9a-f]{4})$", text, re.M)
    return int(counts[-1], 16) if counts else None


def _start(variant: str, image, flash, root) -> subprocess.Popen:
    """The C executive running `image` on a flash of 8 pages of 256 bytes."""
    return subprocess.Popen([str(executable(variant)), "--run", str(image), "--root", str(root),
                             "--persist", str(flash), "--flash-size", "2048", "--flash-page", "256"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def _restored(variant: str, image, flash, root) -> tuple[int, int]:
    """(the value saved once, the count) as a new run of the executive restores them."""
    proc = _start(variant, image, flash, root)
    try:
        lines = [proc.stdout.readline().decode() for _ in range(2)]
    finally:
        proc.kill()
        proc.wait()
    marker = re.match(r"marker ([0-9a-f]{4})$", lines[0].strip())
    match = re.match(r"restored ([0-9a-f]{4})$", lines[1].strip())
    assert marker and match, (lines, proc.stderr.read().decode())
    return int(marker.group(1), 16), int(match.group(1), 16)


@pytest.mark.parametrize("variant", ALL_VARIANTS)
def test_a_power_cut_loses_nothing_acknowledged(variant, images, tmp_path):
    """8 pages of 15 records: the log moves to a new page every 15 saves, so the kills
    land in appends, in page moves and in erases alike. Each run first says what it
    restored (the value saved once, the count), then saves counts as fast as it can;
    its output is drained all the time (it never waits on the pipe), the kill comes at a
    random moment, and the host flash writes a record's bytes in a random order, so a
    cut record is torn anywhere. What the next run restores is the last count a run
    acknowledged, or the one after it (saved, not yet acknowledged)."""
    seed = random.randrange(1 << 30)
    rng = random.Random(seed)
    image, flash = images["persist_forever"], tmp_path / "flash.bin"
    floor = None                            # the last count acknowledged so far
    for cut in range(25):
        proc = _start(variant, image, flash, tmp_path)
        seen: list[bytes] = []
        reader = threading.Thread(target=lambda: seen.append(proc.stdout.read()))
        reader.start()
        time.sleep(rng.uniform(0.005, 0.08))
        os.kill(proc.pid, signal.SIGKILL)
        reader.join()
        proc.wait()
        text = b"".join(seen).decode(errors="replace")
        marker = re.search(r"^marker ([0-9a-f]{4})\nrestored ([0-9a-f]{4})$", text, re.M)
        if marker is None:
            continue                        # cut before it restored: it saved nothing
        where = f"seed {seed}, cut {cut}"
        if floor is not None:
            assert int(marker.group(1), 16) == 0x1234, f"{where}: the value saved once is lost"
            restored = int(marker.group(2), 16)
            assert (restored - floor) % 0x10000 in (0, 1), \
                f"{where}: acknowledged {floor:#x}, restored {restored:#x}"
        acknowledged = _saved(text)
        floor = acknowledged if acknowledged is not None else int(marker.group(2), 16)
    assert floor is not None


# -- the record format (docs/backends.md, "The value log"): hsx.kernel's own reader and
# writer of it, so the C executive's log is checked against the Python executive's

def _pages(flash: bytes, page: int) -> list[tuple[int, int]]:
    """(page index, sequence) of the pages with a valid header."""
    found = []
    for index in range(len(flash) // page):
        magic, sequence, crc = struct.unpack_from("<III", flash, index * page)
        if magic == PAGE_MAGIC and crc == zlib.crc32(flash[index * page:index * page + 8]):
            found.append((index, sequence))
    return found


def _record(app: str, key: int, raw: int, seq: int, good_crc: bool = True) -> bytes:
    record = encode_record(app_id(app), key, raw, seq)
    return record if good_crc else record[:-1] + bytes([record[-1] ^ 1])


def _free_slot(flash: bytes, page: int = 256) -> int | None:
    """Where the store writes its next record: the head page's first erased slot (None
    when the head page is full: the log moves to a new page first)."""
    head, _ = max(_pages(flash, page), key=lambda p: p[1])
    for slot in range(1, page // SLOT):
        at = head * page + slot * SLOT
        if flash[at:at + SLOT] == BLANK:
            return at
    return None


def _append(flash_path, record: bytes) -> None:
    """Write a record where the store would write its next one, as a cut write might
    leave it."""
    flash = bytearray(flash_path.read_bytes())
    at = _free_slot(bytes(flash))
    flash[at:at + SLOT] = record
    flash_path.write_bytes(bytes(flash))


def _records(flash: bytes, page: int = 256) -> list[tuple[int, int, int, int]]:
    """(app, key, raw, seq) of every record with a valid CRC in the pages of the log."""
    found = (decode_record(flash[at:at + SLOT]) for index, _ in _pages(flash, page)
             for at in range(index * page + SLOT, (index + 1) * page, SLOT))
    return [record for record in found if record is not None]


def _newest(flash: bytes, app: str, key: int) -> tuple[int, int]:
    """(raw, seq) of the newest valid record of (app, key), and the log's highest seq."""
    records = _records(flash)
    mine = [r for r in records if (r[0], r[1]) == (app_id(app), key)]
    return max(mine, key=lambda r: r[3])[2], max(r[3] for r in records)


@pytest.mark.parametrize("variant", ALL_VARIANTS)
def test_a_torn_record_is_ignored_and_a_whole_one_is_read(variant, images, tmp_path):
    """The documented format, written by hand: a record whose CRC does not match (a cut
    write) is ignored; the same record with its CRC is the value's newest."""
    image, flash = images["persist_forever"], tmp_path / "flash.bin"
    while not flash.exists() or _free_slot(flash.read_bytes()) is None:
        proc = _start(variant, image, flash, tmp_path)
        try:
            while not proc.stdout.readline().startswith(b"saved"):  # a count is stored
                pass
        finally:
            proc.kill()
            proc.wait()
    stored, seq = _newest(flash.read_bytes(), "persist_forever", 1)
    _append(flash, _record("persist_forever", 1, 0xBEEF, seq + 1, good_crc=False))
    assert _restored(variant, image, flash, tmp_path) == (0x1234, stored)
    while _free_slot(flash.read_bytes()) is None:
        _restored(variant, image, flash, tmp_path)
    _, seq = _newest(flash.read_bytes(), "persist_forever", 1)
    _append(flash, _record("persist_forever", 1, 0xBEEF, seq + 1))
    assert _restored(variant, image, flash, tmp_path) == (0x1234, 0xBEEF)
