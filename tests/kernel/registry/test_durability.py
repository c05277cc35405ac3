"""A writer killed with SIGKILL mid-write leaves a store that opens and is consistent."""
import os
import signal
import sqlite3
import subprocess
import sys
import time

import pytest
from execdkit import readline

from hsx.kernel.registry import PersistKey, PersistStore

KEYS = 40

# Each round writes the round number to every key in one flush (one transaction), then
# reports it.  The store must therefore always hold one round for all keys, and at least
# the last round reported before the kill.
WRITER = f"""
import sys
from hsx.kernel.registry import PersistKey, PersistStore
store = PersistStore(sys.argv[1])
round_ = 0
while True:
    round_ += 1
    for key in range(1, {KEYS} + 1):
        store.schedule_write(PersistKey("crash", key), round_ & 0xFFFF, 1000, now=round_)
    store.flush()
    print(round_, flush=True)
"""

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")


@pytest.mark.parametrize("delay", [0.0, 0.013, 0.031, 0.057])
def test_sigkill_mid_write_leaves_a_consistent_store(tmp_path, delay):
    path = tmp_path / "crash.db"
    writer = subprocess.Popen([sys.executable, "-c", WRITER, str(path)],
                              stdout=subprocess.PIPE, text=True)
    try:
        reported = [int(readline(writer.stdout)) for _ in range(5)]
        time.sleep(delay)                       # let it get into the middle of some round
    finally:
        os.kill(writer.pid, signal.SIGKILL)
        writer.wait()
        writer.stdout.close()
    assert writer.returncode == -signal.SIGKILL

    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    with PersistStore(path) as store:
        rounds = {store.load(PersistKey("crash", key)) for key in range(1, KEYS + 1)}
        assert len(rounds) == 1, f"a transaction was half-applied: {sorted(rounds)}"
        assert rounds.pop() >= reported[-1]
        store.schedule_write(PersistKey("crash", 1), 0, 0, now=0)   # still writable
        assert store.load(PersistKey("crash", 1)) == 0
