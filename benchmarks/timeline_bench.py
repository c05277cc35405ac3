"""What recording a timeline costs, and how fast a recording is exported.

    python benchmarks/timeline_bench.py [--engine python|native] [--events N] [--off-only]

1. Recording: the executive's aggregate speed at quantum 1 with the timeline off and
   on, on two loads.  "messages": a ping and a pong task exchanging mailbox messages as
   fast as they can (each message a send and a receive: the events a timeline records),
   a sensor-like task setting a value and printing a line in a loop, and a spinning
   task.  "8 spinning": kernel_bench's eight counting loops (nothing to record but who
   runs).  Runs with recording off and on alternate (seven each, the best of each kept)
   and the ratio is printed.
2. Export: the same load recorded until the ring holds N records (1,000,000 by
   default), then the seconds `export` takes to build the timeline and write it as a
   Perfetto trace (and as Chrome's JSON).

With --off-only, only the speed with recording off, best of seven runs: run it with
PYTHONPATH pointing at another checkout's src (one without the timeline, say) to
compare what merely having a timeline costs.

Times are the process's CPU time (`time.process_time`), so other work on the machine
does not count.
"""
from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from hsx.kernel.clock import VirtualClock
from hsx.kernel.executive import Kernel
from hsx.kernel.profiles import get_profile
from hsx.toolchain.build import build_source

PING = """
.data
out:  .asciz "app:ping"
back: .asciz "app:pong"
msg:  .ascii "ping"
.bss
buf: .zero 16
.text
.entry start
start:
    LDI32 R1, out
    LDI R2, 0
    SVC MOD=5, FN=0
    MOV R6, R1
    LDI32 R1, back
    LDI R2, 0
    SVC MOD=5, FN=0
    MOV R7, R1
loop:
    MOV R1, R6
    LDI32 R2, msg
    LDI R3, 4
    LDI R4, 0
    LDI R5, 0
    SVC MOD=5, FN=2                     ; SEND
    MOV R1, R7
    LDI32 R2, buf
    LDI R3, 16
    LDI32 R4, 0xFFFF
    LDI R5, 0
    SVC MOD=5, FN=3                     ; RECV, waiting for the answer
    JMP loop
"""

PONG = PING.replace('"app:ping"', '"app:tmp"').replace('"app:pong"', '"app:ping"') \
    .replace('"app:tmp"', '"app:pong"')

SENSOR = """
.value {"group": 2, "id": 1, "group_name": "sensor", "name": "temp", "init": 20.0}
.data
tick: .ascii "t\\n"
.text
.entry start
start:
    LDI32 R6, 0x4D00
    LDI32 R9, 0x3C00
loop:
    LDI R7, 200
spin:
    ADDI R7, R7, -1
    BNE spin
    FADD R6, R6, R9
    LDI32 R1, 0x0201
    MOV R2, R6
    SVC MOD=7, FN=3                     ; VAL SET
    LDI R1, 1
    LDI32 R2, tick
    LDI R3, 2
    SVC MOD=4, FN=2                     ; write(1)
    JMP loop
"""

SPIN = """
.text
.entry start
start:
    LDI R1, 0
    LDI R2, 1
loop:
    ADD R1, R1, R2
    JMP loop
"""


LOADS = {
    "messages": (("ping", PING), ("pong", PONG), ("sensor", SENSOR), ("spin", SPIN)),
    "8 spinning": tuple((f"spin{n}", SPIN) for n in range(8)),      # kernel_bench's load
}


def load(engine: str, fs_root: str, tasks=LOADS["messages"]) -> Kernel:
    kernel = Kernel(profile=get_profile(), clock=VirtualClock(), fs_root=fs_root,
                    engine=engine, output=lambda task, fd, data: None)
    for name, source in tasks:
        kernel.load(build_source(source, filename=f"{name}.mvasm", app_name=name))
    kernel.run(20_000)                                   # warm up
    return kernel


def rate(kernel: Kernel, budget: int) -> float:
    start = time.process_time()
    done = kernel.run(budget)
    return done / (time.process_time() - start)


def recording_cost(engine: str, tasks, budget: int, fs_root: str) -> tuple[float, float]:
    """The best of seven runs with recording off and of seven with it on, alternating
    (a recording afresh each time: the ring stays far from full)."""
    from hsx.debug.timeline import Recorder
    kernel = load(engine, fs_root, tasks)
    recorder = Recorder(kernel)
    off, on = [], []
    for _ in range(7):
        off.append(rate(kernel, budget))
        recorder.start()
        on.append(rate(kernel, budget))
        recorder.stop()
    kernel.shutdown()
    return max(off), max(on)


def off_speed(engine: str, tasks, budget: int, fs_root: str) -> float:
    """The best of seven runs (no recorder is even imported: this runs on a checkout
    without the timeline too)."""
    kernel = load(engine, fs_root, tasks)
    best = max(rate(kernel, budget) for _ in range(7))
    kernel.shutdown()
    return best


def export_speed(engine: str, events: int, fs_root: str) -> None:
    from hsx.debug.timeline import Recorder, export
    from hsx.debug.timeline.recorder import RECORD_BYTES
    kernel = load(engine, fs_root)
    recorder = Recorder(kernel, budget=events * RECORD_BYTES + 4096)
    recorder.start()
    while len(recorder.ring) + recorder.dropped < events:
        kernel.run(200_000)
    recorder.stop()
    recording = recorder.snapshot()
    for name in ("t.pftrace", "t.json"):
        path = Path(fs_root) / name
        start = time.process_time()
        written = export(recording, path)
        elapsed = time.process_time() - start
        print(f"export of {len(recording.records):,} records to {written['format']}: "
              f"{elapsed:.2f} s ({written['events']:,} timeline events, "
              f"{written['bytes'] / 1e6:.1f} MB)")
    kernel.shutdown()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine", choices=("python", "native"), action="append")
    parser.add_argument("--events", type=int, default=1_000_000)
    parser.add_argument("--off-only", action="store_true",
                        help="only the speed with recording off (see above)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as root:
        for engine in args.engine or ("python", "native"):
            budget = 300_000 if engine == "python" else 3_000_000
            for name, tasks in LOADS.items():
                if args.off_only:
                    print(f"{engine:<6} quantum 1, {name:<10} off "
                          f"{off_speed(engine, tasks, budget, root):>11,.0f} instr/s")
                    continue
                off, on = recording_cost(engine, tasks, budget, root)
                print(f"{engine:<6} quantum 1, {name:<10} off {off:>11,.0f} instr/s, on "
                      f"{on:>11,.0f} instr/s: recording keeps {on / off:.1%} of the speed")
        if not args.off_only:
            export_speed((args.engine or ("python",))[0], args.events, root)


if __name__ == "__main__":
    main()
