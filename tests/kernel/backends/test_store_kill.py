"""A power cut at a random moment loses nothing acknowledged and corrupts nothing, in
every store (SQLite, FRAM image, flash pages).

A child process commits batches of values and reports each on a pipe once its commit
has returned; the parent kills it with SIGKILL at a random moment, many times over one
store.  Whatever the timing, the store must then hold exactly the values of every batch
reported, plus at most the first values of the one batch being written (SQLite commits a
batch whole; the FRAM and flash log commits a value at a time, in order).  The images here
skip fsync: a killed process loses nothing the OS already has, and the images program a
byte per write, so a kill can tear a record as a power cut would.
"""
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from execdkit import readline
from storekit import KEYS, STORE_BACKENDS, batch, open_store

from hsx.kernel.registry import PersistKey

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")

ROUNDS = 12
WRITER = f"""
import sys
sys.path.insert(0, {str(Path(__file__).parent)!r})
from storekit import batch, open_store
from pathlib import Path
store = open_store(sys.argv[1], Path(sys.argv[2]), fsync=False)
step = int(sys.argv[3])
print("open", flush=True)
while True:
    for key, raw in batch(step).items():
        store.schedule_write(key, raw, 1000, now=0.0)      # pending ...
    store.flush()                                          # ... committed as one batch
    print(step, flush=True)
    step += 1
"""


def state_after(model: dict, step: int, values: int | None = None) -> dict:
    """The values once commit `step` is in (only its first `values` values: cut short)."""
    return {**model, **dict(list(batch(step).items())[:values])}


def possible_states(model: dict, step: int) -> list[dict]:
    """What the store may hold when commit `step` was cut: none of it, some of its first
    values, or all of it."""
    return [{key: state_after(model, step, n).get(key) for key in KEYS}
            for n in range(len(batch(step)) + 1)]


@pytest.mark.parametrize("kind", STORE_BACKENDS)
def test_sigkill_at_random_points_loses_nothing_acknowledged(kind, tmp_path):
    rng = random.Random()
    model: dict = {}
    step = 0
    for _ in range(ROUNDS):
        writer = subprocess.Popen([sys.executable, "-c", WRITER, kind, str(tmp_path), str(step)],
                                  stdout=subprocess.PIPE, text=True)
        try:
            assert readline(writer.stdout).strip() == "open"
            for _ in range(rng.randrange(0, 40)):          # some acknowledged commits ...
                assert int(readline(writer.stdout)) == step
                model = state_after(model, step)
                step += 1
            time.sleep(rng.uniform(0, 0.01))               # ... then a cut, somewhere
        finally:
            os.kill(writer.pid, signal.SIGKILL)
            writer.wait()
        for line in writer.stdout.read().split():          # reported before the kill
            assert int(line) == step
            model = state_after(model, step)
            step += 1
        writer.stdout.close()
        with open_store(kind, tmp_path) as store:
            found = {key: store.load(key) for key in KEYS}
        possible = possible_states(model, step)
        assert found in possible, (
            f"after commit {step - 1} (and perhaps part of {step}) the store holds {found}")
        model = {key: value for key, value in found.items() if value is not None}
        if found != possible[0]:
            step += 1                         # the next round must not write it again
    assert step > 0


class PowerCut(Exception):
    pass


class CuttingDevice:
    """A device that loses power after `budget` more bytes are programmed (an erase counts
    as one): what a cut at that exact point leaves on the image."""

    def __init__(self, inner, budget: int) -> None:
        self.inner, self.budget = inner, budget
        self.location, self.path = inner.location, inner.path
        self.size, self.page_size = inner.size, inner.page_size

    def _spend(self) -> None:
        if self.budget <= 0:
            raise PowerCut
        self.budget -= 1

    def read(self, addr, length):
        return self.inner.read(addr, length)

    def write(self, addr, data):
        for offset in range(len(data)):
            self._spend()
            self.inner.write(addr + offset, data[offset:offset + 1])

    def erase(self, page_addr):
        self._spend()
        self.inner.erase(page_addr)

    def sync(self):
        self.inner.sync()

    def close(self):
        self.inner.close()


@pytest.mark.parametrize("kind", ["fram", "flash"])
def test_a_cut_at_every_byte_of_a_commit_loses_at_most_the_value_being_written(kind, tmp_path):
    """Deterministic: for each byte a commit programs, cut the power just before it."""
    from hsx.kernel.registry.logstore import LogStore
    with open_store(kind, tmp_path) as store:                 # a log near a reclaim
        for step in range(60):
            for key, raw in batch(step).items():
                store.schedule_write(key, raw, 0, now=0.0)
    image = next(tmp_path.glob("values.*"))
    pristine = image.read_bytes()
    before = {key: value for key, value in _loaded(kind, tmp_path).items() if value is not None}
    possible = possible_states(before, 1000)
    cuts = 0
    while True:
        image.write_bytes(pristine)
        inner = open_store(kind, tmp_path).device
        store = LogStore(CuttingDevice(inner, cuts))
        try:
            store._commit(batch(1000))
            store.close()
            break                                             # the budget outlasted it
        except PowerCut:
            inner.close()
        assert _loaded(kind, tmp_path) in possible, f"cut after {cuts} bytes"
        cuts += 1
    assert cuts > 20                                          # the records were cut into


def _loaded(kind, directory):
    with open_store(kind, directory) as store:
        return {key: store.load(key) for key in KEYS}


@pytest.mark.parametrize("kind", ["fram", "flash"])
def test_a_damaged_record_is_never_read(kind, tmp_path):
    """A record whose bytes changed after it was written (a bit flipped, a write torn in
    some other order) fails its CRC: the value's previous record counts."""
    key = KEYS[0]
    with open_store(kind, tmp_path) as store:
        store.schedule_write(key, 0x1111, 0, now=0.0)
        store.schedule_write(key, 0x2222, 0, now=0.0)
    image = next(tmp_path.glob("values.*"))
    data = bytearray(image.read_bytes())
    newest = data.index((0x2222).to_bytes(2, "little"))
    data[newest] ^= 0x04                                 # 0x2222 -> 0x2226 on the medium
    image.write_bytes(bytes(data))
    assert _loaded(kind, tmp_path)[key] == 0x1111


def test_the_log_is_the_documented_layout(tmp_path):
    """Byte for byte what docs/backends.md (and the C executive's hsx_store.c) lay out:
    a 256-byte FRAM page, its header in slot 0, then one 16-byte record per commit."""
    import struct
    import zlib
    with open_store("fram", tmp_path) as store:
        store.schedule_write(PersistKey("motor", 17), 0x4D00, 0, now=0.0)
        store.schedule_write(PersistKey("motor", 17), 0x4D80, 0, now=0.0)
    data = (tmp_path / "values.fram").read_bytes()
    header = struct.pack("<II", 0x56585348, 1)
    assert data[:16] == header + struct.pack("<I", zlib.crc32(header)) + b"\xff" * 4
    app = zlib.crc32(b"motor")
    for slot, (raw, sequence) in enumerate([(0x4D00, 1), (0x4D80, 2)], start=1):
        body = struct.pack("<IHHI", app, 17, raw, sequence)
        assert data[slot * 16:(slot + 1) * 16] == body + struct.pack("<I", zlib.crc32(body))
    assert data[48:] == b"\xff" * (2048 - 48)
