"""Without qemu-system-arm, the mps2-an385 board says what to install (and its tests
skip, each with mps2kit's one reason)."""
from __future__ import annotations

import os
import subprocess
import sys


def test_hsx_board_run_without_qemu_names_the_package(tmp_path):
    done = subprocess.run([sys.executable, "-m", "hsx", "board", "run", "--board", "mps2-an385"],
                          capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PATH": str(tmp_path)})
    assert done.returncode == 2
    assert done.stderr.startswith("hsx: the mps2-an385 board: qemu-system-arm is not installed\n")
    assert "the OS package qemu-system-arm" in done.stderr and "Traceback" not in done.stderr
