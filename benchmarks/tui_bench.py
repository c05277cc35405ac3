"""How quickly `hsx dbg` reflects what happens, driven headless (Textual's Pilot) against
a real `hsx execd` child process.

    python benchmarks/tui_bench.py [--rounds N]

1. Breakpoint hit -> the registers panel shows the stop: from the `debug_break` event's
   timestamp (taken by the executive when the task stopped) to the screen painted with
   the new stop's registers.  Requirement (AC-3): within 200 ms.
2. A stdout line -> the Output panel shows it: from the `stdout` event's timestamp to the
   screen being painted with the line in the Output panel.  Requirement: within 200 ms.
3. Key press -> repaint while the attached task prints 10,000 lines/s (the Output panel
   shown): from sending a key (`x` in the registers panel, which switches it between hex
   and decimal) to the screen painted with the change.  Requirement: at most 100 ms.

Keys are posted to the app as the terminal driver posts them, and the app is watched
with short sleeps: Pilot's press() and pause() wait for the process to go idle, which
it never does while a task prints, and would time Pilot instead of the app.
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

from textual import events

from hsx.client import Client
from hsx.tui import DebuggerApp
from hsx.tui.layout import LayoutStore
from hsx.tui.target import Target
from hsx.tui.widgets.registers import RegistersView

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
    """Resume a task parked on a breakpoint in its loop (`c`); it hits it again one
    iteration later.  Latency: the event's timestamp to the screen painted with the
    stop's registers."""
    app = DebuggerApp(Target("127.0.0.1", port), pid=load(port, program, paused=True),
                      layouts=store)
    stops: list[float] = []
    original = app.on_target_event

    def note(event):                       # the executive's time of each stop
        if event.get("type") == "debug_break":
            stops.append(event["ts"])
        original(event)
    app.on_target_event = note
    out = []
    async with app.run_test(size=(120, 40)) as pilot:
        await wait(pilot, lambda: app.task is not None and app.registers is not None)
        await app.target.set_breakpoint(4)                   # ADDI in the loop
        for _ in range(rounds + 1):
            steps = app.registers.steps
            app.post_message(events.Key("c", "c"))
            await until(lambda: app.registers.steps > steps and not app.running)
            out.append(await painted(app) - stops[-1])
    return out[1:]


async def until(predicate, timeout: float = 10.0) -> None:
    """Wait, looking often, without Pilot's waits for an idle process."""
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise TimeoutError("the app did not get there")
        await asyncio.sleep(0.001)


async def painted(app: DebuggerApp) -> float:
    """The wall-clock time at which the screen has been painted with what the app
    holds now."""
    done = asyncio.get_running_loop().create_future()
    app.call_after_refresh(lambda: done.set_result(time.time()))
    return await done


async def output_and_keys(port: int, program: Path, rounds: int, store: LayoutStore):
    """A task printing 10,000 lines/s: how long until a line is painted in the Output
    panel, and how long a key press takes to be handled and painted meanwhile."""
    with Client("127.0.0.1", port) as client:
        client.request("clock.rate", rate=10_000 * LINE_INSTRUCTIONS)
    app = DebuggerApp(Target("127.0.0.1", port), pid=load(port, program), layouts=store)
    line_delays: list[float] = []
    waiting: list[tuple[int, float]] = []     # (Output rows once it is there, its time)
    original_event, original_flush = app.on_target_event, app._flush_logs
    writes = 0
    measuring = False                         # from one second after attaching

    def note(event):
        nonlocal writes
        original_event(event)
        if event.get("type") == "stdout" and event.get("pid") == app.pid:
            before, writes = writes, writes + event["data"].get("writes", 1)
            if measuring and writes // SAMPLE > before // SAMPLE:   # not every line:
                # that would slow the app down
                waiting.append((app.output.added, event["ts"]))

    def flush():                              # the batch goes to the panel, then paints
        original_flush()
        shown = [ts for rows, ts in waiting if rows <= app.output.added]
        del waiting[:len(shown)]
        app.call_after_refresh(lambda: line_delays.extend(time.time() - ts for ts in shown))
    app.on_target_event, app._flush_logs = note, flush
    keys = []
    async with app.run_test(size=(120, 40)) as pilot:
        await wait(pilot, lambda: app.task is not None)
        app.focus_panel("output")                            # shown, and repainting
        registers = app.query_one(RegistersView)
        registers.focus()
        await asyncio.sleep(1.0)                  # attached, caught up, printing at full rate
        measuring = True
        cpu, wall, lines = time.process_time(), time.perf_counter(), writes
        for _ in range(rounds):
            keys.append(await key_to_paint(app, registers))
            await asyncio.sleep(0.05)
        elapsed = time.perf_counter() - wall
        usage = {"cpu": (time.process_time() - cpu) / elapsed, "rate": (writes - lines) / elapsed}
        printed = app.output.added
    with Client("127.0.0.1", port) as client:
        client.request("clock.rate", rate=0)
    return line_delays, keys, printed, writes, usage


async def key_to_paint(app: DebuggerApp, registers: RegistersView) -> float:
    """Send `x` as the terminal would and time it until the registers panel switched
    between hex and decimal and the screen was painted."""
    before = registers.decimal
    start = time.time()
    app.post_message(events.Key("x", "x"))
    await until(lambda: registers.decimal != before)
    return await painted(app) - start


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
            lines, keys, printed, received, usage = asyncio.run(
                output_and_keys(port, root / "chatty.mvasm", args.rounds, store))
        finally:
            proc.terminate()
            proc.wait(timeout=10)
    print(summary("breakpoint hit -> registers panel", hits, 200))
    print(summary("stdout line -> Output panel (10,000 lines/s)", lines, 200))
    print(summary("key press -> repaint (10,000 lines/s)", keys, 100))
    print(f"stdout lines received {received}, rows added to the Output panel {printed}; "
          f"while timing keys: {usage['rate']:,.0f} lines/s arrived, the app used "
          f"{usage['cpu']:.0%} of a core")


if __name__ == "__main__":
    main()
