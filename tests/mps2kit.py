"""The mps2-an385 board under QEMU for the tests that run on it (tests/board, and the
debugger's and the adapter's board tests): started as `hsx board run --board mps2-an385`
starts it, its flash in a file of the test's, and always stopped -- the board's QEMU
also ends with the test run however that ends (PR_SET_PDEATHSIG, hsx.board.serve).

Without qemu-system-arm these tests skip, all with the one reason below."""
from __future__ import annotations

import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

import pytest

from hsx.board.qemu import qemu_program

QEMU_MISSING = ("qemu-system-arm is not installed: the mps2-an385 board tests run the "
                "firmware under QEMU (install the OS package qemu-system-arm)")
requires_qemu = pytest.mark.skipif(qemu_program() is None, reason=QEMU_MISSING)


@contextmanager
def mps2_board(flash: Path, variant: str = "development") -> Iterator:
    """The board serving socket://127.0.0.1:PORT (a hsx.board.qemu.QemuServed: .url,
    .hello, .reset(), .diagnostics()); QEMU is stopped when the block ends."""
    from hsx.board.serve import start
    served = start("mps2-an385", "socket://127.0.0.1:0", variant, str(flash))
    try:
        yield served
    finally:
        served.stop()
        assert served.process.poll() is not None, "QEMU outlived its test"


def wait_for(predicate, timeout: float = 60.0, what: str = "condition"):
    """Poll `predicate()` until it holds; fail after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.02)
    raise AssertionError(f"{what} not reached within {timeout} s")
