"""Start-up of the quick `hsx` commands, whole process: `python benchmarks/startup_bench.py`.

Times, as a user's shell would start them, `hsx run` of a program that returns at once,
`hsx --help` and `hsx shell ps` against an executive this script starts, next to
`python -c pass`. Each command runs `--runs` times (after one warm-up run), in turn with
the others so that all see the same machine; the figures are the median wall-clock time
and the median CPU time (user + system, the process's own from `wait4`), in seconds.
On a machine shared with other work, CPU time is the steadier figure: wall time also
counts the time the process waited for a CPU.

Bytecode: a pip install compiles it; run `python -m compileall -q src` first in a
source tree whose environment sets PYTHONDONTWRITEBYTECODE.
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

EMPTY = "        .entry main\nmain:   LDI R0, 0\n        SVC MOD=1, FN=0\n"
TARGETS = {"hsx run (empty program)": 0.12, "hsx --help": 0.12, "hsx shell ps": 0.10}


def timed(command: list[str]) -> tuple[float, float]:
    """(wall, cpu) seconds of one run of `command`, its output discarded."""
    started = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - started
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        raise SystemExit(f"{' '.join(command)} exited with {process.returncode}")
    return wall, usage.ru_utime + usage.ru_stime


def start_executive(hsx: str, root: Path) -> tuple[subprocess.Popen, int]:
    """`hsx execd` on a free port (it ends with this script: --exit-on-eof)."""
    process = subprocess.Popen([hsx, "execd", "--port", "0", "--root", str(root),
                                "--exit-on-eof"], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, text=True)
    line = process.stdout.readline()
    if not line.startswith("hsx execd listening on "):
        raise SystemExit(f"hsx execd did not start: {line!r}")
    return process, int(line.rsplit(":", 1)[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--hsx", default=str(Path(sys.executable).with_name("hsx")),
                        help="the hsx command (default: the one beside this Python)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as work:
        work_dir = Path(work)
        (work_dir / "empty.mvasm").write_text(EMPTY)
        subprocess.run([args.hsx, "asm", str(work_dir / "empty.mvasm"), "-o",
                        str(work_dir / "empty.hxe")], check=True)
        (work_dir / "fs").mkdir()
        executive, port = start_executive(args.hsx, work_dir / "fs")
        commands = {
            "python -c pass": [sys.executable, "-c", "pass"],
            "hsx run (empty program)": [args.hsx, "run", str(work_dir / "empty.hxe")],
            "hsx --help": [args.hsx, "--help"],
            "hsx shell ps": [args.hsx, "shell", "--port", str(port), "ps"],
        }
        try:
            times: dict[str, list[tuple[float, float]]] = {name: [] for name in commands}
            for round_ in range(args.runs + 1):
                for name, command in commands.items():
                    result = timed(command)
                    if round_:                           # the first round warms up
                        times[name].append(result)
        finally:
            executive.stdin.close()
            executive.wait(timeout=30)
    print(f"{'command':<26}{'wall s':>8}{'cpu s':>8}{'target':>8}   (medians of {args.runs})")
    for name, results in times.items():
        wall = statistics.median(w for w, _ in results)
        cpu = statistics.median(c for _, c in results)
        target = f"{TARGETS[name]:.2f}" if name in TARGETS else ""
        print(f"{name:<26}{wall:8.3f}{cpu:8.3f}{target:>8}")


if __name__ == "__main__":
    main()
