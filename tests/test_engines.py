"""The suite runs on the native engine (the default when it is available); the kernel,
debugger and server suites run again here on the Python engine, the reference, so every
feature is shown to behave the same on both (the VM's own tests cover both engines and
the translator directly, instruction by instruction)."""
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
def test_kernel_debugger_and_server_suites_pass_on_the_python_engine():
    env = {**os.environ, "HSX_ENGINE": "python"}
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           "tests/kernel", "tests/debug", "tests/server"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=1800)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
