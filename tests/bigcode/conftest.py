"""Fixtures for the tests of programs with more than 64 KiB of code: the generated
program (bigprog.py) built with -g once per session, as a user builds it."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parent.parent))            # execdkit
sys.path.insert(0, str(Path(__file__).parent.parent / "dap"))    # dapkit

import bigprog  # noqa: E402


@pytest.fixture(scope="session")
def big(tmp_path_factory) -> Path:
    """big.hxe (and big.sym, big.c beside it): bigprog's program, `hsx cc -g -O1`."""
    out = tmp_path_factory.mktemp("big")
    (out / "big.c").write_text(bigprog.source())
    build = subprocess.run([sys.executable, "-m", "hsx", "cc", "-g", "-O1", str(out / "big.c"),
                            "-o", str(out / "big.hxe")], capture_output=True, text=True,
                           timeout=1200)
    assert build.returncode == 0, build.stderr
    return out / "big.hxe"
