"""How quickly `hsx dbg` reflects what happens, driven headless (Textual's Pilot) against
a real `hsx execd` child process.

    python benchmarks/tui_bench.py [--rounds N]

1. Breakpoint hit -> the registers panel shows the stop: from the `debug_break` event's
   timestamp (taken by the executive when the task stopped) to the moment the app's
   registers hold the new stop.  Requirement (AC-3): within 200 ms.
2. A stdout line -> the Output panel shows it: from the `stdout` event's timestamp to the
   line being in the Output log.  Requirement: within 200 ms.
3. Key press -> repaint while the attached task prints 10,000 lines/s: from sending a key
   (`x`, which redraws the registers) to the screen having processed and painted it.
   Requirement: at most 100 ms.
"""
from __future__ import annotations

import argparse
import asyncio
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from textual.widgets import Log

from hsx.client import Client
from hsx.tui import DebuggerApp
from hsx.tui.layout import LayoutStore
from hsx.tui.target import Target

LOOP = """
.text
.entry start
start:
    LDI R1, 0
loop:
    ADDI R1, R1, 1
    JMP loop
"""
CHATTY = """
.data
msg: .ascii "tick\\n"
.text
.entry start
start:
    LDI R1, 1
    LDI32 R2, msg
    LDI R3, 5
    SVC MOD=4, FN=2
    JMP start
"""
SAMPLE = 100                   # stdout lines: the latency of one in SAMPLE is measured
LINE_INSTRUCTIONS = 6          # CHATTY's loop: instructions per printed line (LDI32 counts 1)


def start_execd(root: Path) -> tuple[subprocess.Popen, int]:
    proc = subprocess.Popen([sys.executable, "-m", "hsx", "execd", "--port", "0", "--root",
                             str(root)], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            text=True)
    line = proc.stdout.readline()
    return proc, int(line.rsplit(":", 1)[1])


def load(port: int, path: Path, **fields) -> int:
    with Client("127.0.0.1", port) as client:
        return client.request("load", path=str(path), **fields)["pid"]


async def wait(pilot, predicate, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise TimeoutError("the app did not get there")
        await pilot.pause(0.001)


async def breakpoint_latency(port: int, program: Path, rounds: int, store: LayoutStore) -> list[float]:
    """Resume a task parked on a breakpoint in its loop; it hits it again one iteration
    later.  Latency: the event's timestamp to the app holding the stop's registers."""
    app = DebuggerApp(Target("127.0.0.1", port), pid=load(port, program, paused=True),
                      layouts=store)
    stops: list[tuple[float, int]] = []
    original = app.on_target_event

    def note(event):                       # the executive's time of each stop
        if event.get("type") == "debug_break":
            stops.append((event["ts"], event["data"]["pc"]))
        original(event)
    app.on_target_event = note
    out = []
    async with app.run_test(size=(120, 40)) as pilot:
        await wait(pilot, lambda: app.task is not None and app.registers is not None)
        await app.target.set_breakpoint(4)                   # ADDI in the loop
        for _ in range(rounds + 1):
            steps = app.registers.steps
            await pilot.press("c")
            await wait(pilot, lambda: app.registers.steps > steps and not app.running)
            out.append(time.time() - stops[-1][0])
    return out[1:]


async def output_and_keys(port: int, program: Path, rounds: int, store: LayoutStore):
    """A task printing 10,000 lines/s: how long until a line is in the Output panel, and
    how long a key press takes to be handled and painted meanwhile."""
    with Client("127.0.0.1", port) as client:
        client.request("clock.rate", rate=10_000 * LINE_INSTRUCTIONS)
    app = DebuggerApp(Target("127.0.0.1", port), pid=load(port, program), layouts=store)
    line_delays: list[float] = []
    original = app.on_target_event
    seen = 0

    def note(event):
        nonlocal seen
        original(event)
        if event.get("type") == "stdout":
            seen += 1
            if seen % SAMPLE == 0:           # every line would slow what is measured
                sent = event["ts"]

                def shown() -> None:
                    line_delays.append(time.time() - sent)
                app.call_after_refresh(shown)    # after the batch is written and painted
    app.on_target_event = note
    keys = []
    async with app.run_test(size=(120, 40)) as pilot:
        await wait(pilot, lambda: app.task is not None)
        app.focus_panel("output")
        await pilot.pause(1.0)                                # printing at full rate
        for _ in range(rounds):
            start = time.perf_counter()
            await pilot.press("x")
            await pilot.pause()                               # handled, screen refreshed
            keys.append(time.perf_counter() - start)
            await asyncio.sleep(0.05)
        printed = sum(len(log.lines) for log in app.query(Log))
    with Client("127.0.0.1", port) as client:
        client.request("clock.rate", rate=0)
    return line_delays, keys, printed


def summary(name: str, values: list[float], limit_ms: float) -> str:
    ms = sorted(v * 1000 for v in values)
    p95 = ms[min(len(ms) - 1, int(len(ms) * 0.95))]
    verdict = "ok" if p95 <= limit_ms else "OVER"
    return (f"{name:<44} n={len(ms):<5} median {statistics.median(ms):6.1f} ms  "
            f"p95 {p95:6.1f} ms  max {ms[-1]:6.1f} ms  (limit {limit_ms:g} ms: {verdict})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "loop.mvasm").write_text(LOOP)
        (root / "chatty.mvasm").write_text(CHATTY)
        store = LayoutStore(root / "layout.json")
        proc, port = start_execd(root / "fs")
        try:
            hits = asyncio.run(breakpoint_latency(port, root / "loop.mvasm", args.rounds, store))
            lines, keys, printed = asyncio.run(
                output_and_keys(port, root / "chatty.mvasm", args.rounds, store))
        finally:
            proc.terminate()
            proc.wait(timeout=10)
    print(summary("breakpoint hit -> registers panel", hits, 200))
    print(summary("stdout line -> Output panel (10,000 lines/s)", lines, 200))
    print(summary("key press -> repaint (10,000 lines/s)", keys, 100))
    print(f"lines in the Output panel after the run: {printed}")


if __name__ == "__main__":
    main()
