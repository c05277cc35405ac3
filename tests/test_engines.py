"""The suite runs on the native engine (the default when it is available); here the
whole suite runs again on the Python engine, the reference — every process it starts
too (`hsx execd`, `hsx dap`, `hsx dbg`) — so every feature is shown to behave the same
on both (the VM's own tests also compare the engines and the translator directly,
instruction by instruction).  The tests of the C executive (marked `c_executive`: its
host build and the mps2-an385 board) are left out: no Python engine runs in them."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from hsx.vm.native.engine import unavailable_reason

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.skipif(unavailable_reason() is not None,
                    reason="without the native engine the whole suite already ran on Python")
def test_the_whole_suite_passes_on_the_python_engine():
    env = {**os.environ, "HSX_ENGINE": "python"}
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           "--ignore", str(Path(__file__)), "-m", "not c_executive", "tests"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=2700)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
