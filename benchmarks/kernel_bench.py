"""Aggregate kernel throughput: N tasks spinning round-robin at a given quantum.

    python benchmarks/kernel_bench.py

Each task is the counted loop of vm_bench (ADD, ADD, CMP, JNZ forever).  The kernel runs
a fixed instruction budget (20 times more on the native engine); the figure is guest
instructions per second over all tasks, including scheduling, context switches and timer
checks, on the Python engine and on the native one.
"""
from __future__ import annotations

import tempfile
import time

from hsx.kernel.clock import VirtualClock
from hsx.kernel.executive import Kernel
from hsx.kernel.profiles import get_profile
from hsx.toolchain.build import build_source

SPIN = """
.text
.entry start
start:
    LDI R1, 0
    LDI R2, 1
    LDI32 R4, 0x7FFFFFFF
loop:
    ADD R1, R1, R2
    ADD R3, R3, R2
    CMP R3, R4
    JNZ loop
    SVC MOD=1, FN=0
"""


def measure(tasks: int, quantum: int, budget: int, fs_root: str, engine: str) -> float:
    kernel = Kernel(profile=get_profile(max_tasks=128), clock=VirtualClock(), fs_root=fs_root,
                    engine=engine)
    image = build_source(SPIN, filename="spin.mvasm", app_name="spin")
    for _ in range(tasks):
        kernel.set_quantum(kernel.load(image).pid, quantum)
    kernel.run(10_000)                                  # warm up: translate the loop
    start = time.perf_counter()
    done = kernel.run(budget)
    elapsed = time.perf_counter() - start
    kernel.shutdown()
    return done / elapsed


def main() -> None:
    with tempfile.TemporaryDirectory() as root:
        print(f"{'engine':<7} {'tasks':>5} {'quantum':>7} {'instr/s':>12}")
        for engine, scale in (("python", 1), ("native", 20)):
            for quantum, budget in ((1, 300_000), (100, 3_000_000)):
                for tasks in (1, 8, 64):
                    rate = measure(tasks, quantum, budget * scale, root, engine)
                    print(f"{engine:<7} {tasks:>5} {quantum:>7} {rate:>12,.0f}")


if __name__ == "__main__":
    main()
