"""What the debugger costs when it is not stopping anything.

    python benchmarks/debug_bench.py [--quick]

1. Kernel throughput (guest instructions per second over all tasks) with no debugger,
   with a `Debugger` attached, and with a Debugger holding 10 breakpoints in code the
   tasks never reach.  Requirement: within 10% of no debugger.
2. `run_to` a PC about 1,000,000 instructions ahead (a temporary breakpoint, the kernel
   runs at full speed) against simply running that many instructions.
Each figure is the best of several fresh kernels, the variants measured in turn within
each round so that drift of a shared host hits them alike.
"""
from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from hsx.debug import Debugger
from hsx.image.hxe import write_hxe
from hsx.image.sym import write_sym
from hsx.kernel.clock import VirtualClock
from hsx.kernel.executive import Kernel
from hsx.kernel.profiles import get_profile
from hsx.kernel.states import TaskState
from hsx.toolchain.build import assemble_source, link_objects

# The counted loop of vm_bench, then ten functions nobody calls (breakpoint sites).
SPIN = """
.entry start
start:
    LDI R1, 0
    LDI R2, 1
    LDI32 R4, {limit}
loop:
    ADD R1, R1, R2
    ADD R3, R3, R2
    CMP R3, R4
    JNZ loop
target:
    SVC MOD=1, FN=0
""" + "".join(f"unused{i}: PUSH R14\n    MOV R14, R15\n    POP R14\n    RET\n" for i in range(10))


def program(root: Path, limit: int = 0x7FFFFFFF) -> Path:
    image, symbols = link_objects([assemble_source(SPIN.format(limit=limit), "spin.mvasm")],
                                  app_name="spin")
    path = root / f"spin{limit}.hxe"
    path.write_bytes(write_hxe(image))
    path.with_suffix(".sym").write_bytes(write_sym(symbols))
    return path


def kernel(root: Path) -> Kernel:
    return Kernel(profile=get_profile(max_tasks=128), clock=VirtualClock(), fs_root=root / "fs")


def throughput(root: Path, tasks: int, quantum: int, budget: int, mode: str) -> float:
    k = kernel(root)
    path = program(root)
    debugger = Debugger(k) if mode != "none" else None
    for _ in range(tasks):
        task = k.load(path)
        k.set_quantum(task.pid, quantum)
        if mode == "10 breakpoints":
            for i in range(10):
                debugger.breakpoints.set(task.pid, f"unused{i}")
    k.run(10_000)                                       # warm up: translate the loop
    start = time.perf_counter()
    done = k.run(budget)
    elapsed = time.perf_counter() - start
    k.shutdown()
    return done / elapsed


def run_to_seconds(root: Path, instructions: int, use_run_to: bool) -> tuple[float, int]:
    """Seconds to execute until `target` (about `instructions` away) by run_to, or to
    run the same number of instructions freely."""
    k = kernel(root)
    task = k.load(program(root, limit=instructions // 4))
    debugger = Debugger(k)
    if use_run_to:
        debugger.pause(task.pid)
        debugger.run_to(task.pid, "target")
    start = time.perf_counter()
    if use_run_to:
        while task.state is not TaskState.PAUSED:
            k.run(1_000_000)
    else:
        k.run(instructions)
    elapsed = time.perf_counter() - start
    steps = task.ctx.steps
    k.shutdown()
    return elapsed, steps


def best_of(rounds: int, measures: dict, pick=max) -> dict:
    """Measure every variant once per round, rotating the order; keep the best of each."""
    results: dict = {name: [] for name in measures}
    names = list(measures)
    for r in range(rounds):
        for name in names[r % len(names):] + names[:r % len(names)]:
            results[name].append(measures[name]())
    return {name: pick(values) for name, values in results.items()}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    rounds = 3 if args.quick else 7
    scale = 10 if args.quick else 1
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        print(f"kernel throughput (guest instr/s over all tasks), best of {rounds}")
        print(f"{'tasks':>5} {'quantum':>7} {'no debugger':>13} {'debugger':>13} "
              f"{'10 bps':>13} {'10 bps/none':>11}")
        for tasks, quantum, budget in ((1, 1, 3_000_000), (8, 1, 300_000), (8, 100, 3_000_000)):
            budget //= scale
            rates = best_of(rounds, {
                mode: (lambda m=mode: throughput(root, tasks, quantum, budget, m))
                for mode in ("none", "debugger", "10 breakpoints")})
            print(f"{tasks:>5} {quantum:>7} {rates['none']:>13,.0f} {rates['debugger']:>13,.0f} "
                  f"{rates['10 breakpoints']:>13,.0f} {rates['10 breakpoints'] / rates['none']:>11.3f}")

        distance = 1_000_000 // scale
        print(f"\nrun_to a PC ~{distance:,} instructions ahead vs running freely, best of {rounds}")
        times = best_of(rounds, {
            "free run": lambda: run_to_seconds(root, distance, False),
            "run_to": lambda: run_to_seconds(root, distance, True)}, pick=min)
        for name, (seconds, steps) in times.items():
            print(f"{name:>10} {seconds:8.3f} s  ({steps:,} instructions)")
        print(f"{'ratio':>10} {times['run_to'][0] / times['free run'][0]:8.3f}")


if __name__ == "__main__":
    main()
