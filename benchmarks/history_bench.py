"""Reverse execution: the cost of recording, of going back, and the memory it takes.

    python benchmarks/history_bench.py

On the CoreMark-like peer workload (benchmarks/peers/coremark.c, `hsx cc -O2`, printing
through SVCs) and a counted loop that keeps writing memory, on both engines:

- recording overhead: machine time with history on / off (same program, same budget);
- `step.back` after 10 million recorded instructions: one instruction back, and back to
  random points of the history (restore the checkpoint before, replay to the point);
- history memory per million instructions recorded (nothing dropped: budget 1 GiB).
"""
from __future__ import annotations

import io
import random
import statistics
import tempfile
import time
from pathlib import Path

from hsx.debug.history import History
from hsx.toolchain.build import build_source
from hsx.toolchain.cc.driver import Options, build_c
from hsx.vm import Machine, StandaloneSvc

PEERS = Path(__file__).resolve().parent / "peers"
TEN_MILLION = 10_000_000
STORE_LOOP = """
.entry start
start:
    LDI32 R5, 0x2000
    LDI32 R6, 0x3FFF
    LDI32 R7, 0x2000
loop:
    ADDI R1, R1, 1
    ST [R5], R1
    ADDI R5, R5, 4
    AND R5, R5, R6
    OR R5, R5, R7
    BR loop
"""


def coremark_image():
    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp) / "coremark.c"
        source.write_text((PEERS / "coremark.c").read_text())
        (Path(tmp) / "peer.h").write_text((PEERS / "peer.h").read_text())
        result, _ = build_c([str(source)], Options(opt=2, defines=("CORE_ITERATIONS=1500",)),
                            "coremark")
        return result.image


def machine(engine: str) -> Machine:
    return Machine(StandaloneSvc(stdout=io.BytesIO()), engine=engine)


def timed_run(image, engine: str, record: bool, budget: int) -> tuple[float, object]:
    m = machine(engine)
    ctx = m.create_context(image)
    if record:
        ctx.history = History(m, ctx, budget=1 << 30)
    started = time.perf_counter()
    done = 0
    while done < budget and ctx.state.value == "ready":
        done += m.run(ctx, min(100_000, budget - done)).executed   # the executive's slices
    return time.perf_counter() - started, ctx


def main() -> None:
    images = {"coremark-like": coremark_image(),
              "store loop": build_source(STORE_LOOP, filename="loop.mvasm")}
    print(f"{'workload':<14} {'engine':<7} {'instructions':>12} {'plain s':>8} {'recorded s':>10} "
          f"{'overhead':>8} {'KiB/M instr':>11}")
    for name, image in images.items():
        for engine in ("native", "python"):
            budget = TEN_MILLION if engine == "native" else TEN_MILLION // 5
            plain, _ = timed_run(image, engine, False, budget)
            recorded, ctx = timed_run(image, engine, True, budget)
            per_million = ctx.history.bytes / 1024 / (ctx.steps / 1e6)
            print(f"{name:<14} {engine:<7} {ctx.steps:>12,} {plain:>8.3f} {recorded:>10.3f} "
                  f"{recorded / plain:>7.2f}x {per_million:>11.1f}")
    print("\nstep.back with 10 million instructions of history (store loop)")
    print(f"{'engine':<7} {'one instruction ms':>19} {'random point ms (median, max)':>30}")
    for engine in ("native", "python"):
        _, ctx = timed_run(images["store loop"], engine, True, TEN_MILLION)
        history = ctx.history
        rng = random.Random(7)
        started = time.perf_counter()
        history.goto(history.end - 1)
        one = (time.perf_counter() - started) * 1000
        samples = []
        for _ in range(20):
            target = rng.randrange(history.start, history.end)
            started = time.perf_counter()
            history.goto(target)
            samples.append((time.perf_counter() - started) * 1000)
        print(f"{engine:<7} {one:>19.2f} {statistics.median(samples):>18.2f}, "
              f"{max(samples):>9.2f}")


if __name__ == "__main__":
    main()
