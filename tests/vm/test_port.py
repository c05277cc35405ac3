"""The native core builds for a microcontroller (Cortex-M3) within the design's budget."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FLASH_BUDGET = 10 * 1024        # VM interpreter + ISA tables (reference budget, AVR target)


def test_the_core_cross_compiles_for_cortex_m3_within_budget():
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "port_size.py"), "--json"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert 0 < report["flash_bytes"] <= FLASH_BUDGET
    assert report["static_ram_bytes"] == 0             # all state is the host's
    assert report["task_record_bytes"] <= 128
    # Only the ARM EABI's soft-float and integer helpers (compiler-rt/libgcc), no libc.
    assert all(name.startswith("__aeabi_") for name in report["runtime_helpers"])
