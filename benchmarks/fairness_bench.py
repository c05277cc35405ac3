"""Fairness under load: what priorities and quanta do for a task beside CPU hogs.

    python benchmarks/fairness_bench.py [--work N] [--hogs K]

Starts `hsx execd --port 0` (a separate process, as in real use) and times, over
loopback, until a task ends:

* **worker**: a counted loop of `--work` iterations, then exit (CPU-bound);
* **interactive**: 200 rounds of "sleep 1 ms, do a little work" (latency-bound);

each alone, then beside `--hogs` infinite loops at the default priority (10) and
quantum (1), then with the task's priority raised to 20; and (worker) with quanta as
weights: every hog's quantum 10,000 and the worker's 10,000, then 40,000 (its share of
the level goes from 1/5 to 1/2).  Each series runs in one executive (after a warm-up
run); each case `--repeat` times, the median wall seconds and the slowdown against alone.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from server_bench import LOOP, Daemon, image  # noqa: E402

WORKER = """
.text
.entry start
start:
    LDI R1, 0
    LDI32 R2, {work}
loop:
    ADDI R1, R1, 1
    CMP R1, R2
    BNE loop
    LDI R0, 0
    SVC MOD=1, FN=0
"""

INTERACTIVE = """
.text
.entry start
start:
    LDI R5, 200
round:
    LDI R0, 1
    SVC MOD=6, FN=0          ; sleep 1 ms (waiting for input, say)
    LDI R1, 0
    LDI R2, 200
work:
    ADDI R1, R1, 1
    CMP R1, R2
    BNE work
    ADDI R5, R5, -1
    CMPI R5, 0
    BNE round
    LDI R0, 0
    SVC MOD=1, FN=0
"""


def timed(client, source: str, name: str, **sched) -> float:
    pid = client.request("load", image=image(source, name), paused=True)["pid"]
    if sched:
        client.request("sched", pid=pid, **sched)
    started = time.perf_counter()
    client.request("resume", pid=pid)
    while True:
        row = client.request("ps", pid=pid)["tasks"]["tasks"][0]
        if row["state"] in ("returned", "faulted", "killed"):
            return time.perf_counter() - started
        time.sleep(0.002)


def series(label: str, source: str, hogs: int, repeat: int, weights: bool) -> None:
    """One executive: the task alone (after a warm-up run), then beside the hogs."""
    with Daemon() as daemon, daemon.client() as client:
        base: dict[str, float] = {}

        def measure(case: str, **sched) -> None:
            seconds = statistics.median(timed(client, source, label, **sched)
                                        for _ in range(repeat))
            ratio = seconds / base.setdefault("alone", seconds)
            print(f"{label:12} {case:30} {seconds:8.3f} s  x{ratio:6.2f}", flush=True)

        timed(client, source, label)                      # warm-up: caches, clock batch
        measure("alone")
        pids = [client.request("load", image=image(LOOP, f"hog{n}"))["pid"]
                for n in range(hogs)]
        time.sleep(0.3)
        measure("beside hogs, priority 10")
        measure("beside hogs, priority 20", priority=20)
        if weights:
            for pid in pids:
                client.request("sched", pid=pid, quantum=10_000)
            measure("all quantum 10000", quantum=10_000)
            measure("hogs q10000, worker q40000", quantum=40_000)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--work", type=int, default=10_000_000, help="worker loop iterations")
    parser.add_argument("--hogs", type=int, default=4)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    series("worker", WORKER.format(work=args.work), args.hogs, args.repeat, weights=True)
    series("interactive", INTERACTIVE, args.hogs, args.repeat, weights=False)


if __name__ == "__main__":
    main()
