"""Fixtures for the adapter's tests: a real `hsx execd`, the test programs built with -g
as a user builds them (once per session, in parallel), and `hsx dap` subprocesses."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from dapkit import PROGRAMS, DapClient  # noqa: E402
from execdkit import execd_child  # noqa: E402


@pytest.fixture(scope="session")
def execd(tmp_path_factory):
    """(host, port) of an executive shared by the session; each test loads its own task."""
    yield from execd_child(tmp_path_factory.mktemp("execd"))


@pytest.fixture(scope="session")
def built(tmp_path_factory) -> Path:
    """A directory with prog.c/ticker.c/stock.c and their -g -O0 builds (.hxe, .sym,
    sources.json) and the MVASM programs."""
    out = tmp_path_factory.mktemp("programs")
    for name in ("prog.c", "ticker.c", "stock.c", "count.mvasm", "trap.mvasm", "flood.mvasm"):
        shutil.copy(PROGRAMS / name, out / name)
    builds = [subprocess.Popen([sys.executable, "-m", "hsx", "cc", "-g", "-O0",
                                str(out / f"{name}.c"), "-o", str(out / f"{name}.hxe")],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
              for name in ("prog", "ticker", "stock")]
    for build in builds:
        output, _ = build.communicate(timeout=600)
        assert build.returncode == 0, output.decode()
    return out


@pytest.fixture
def dap():
    client = DapClient.start()
    yield client
    client.close()
