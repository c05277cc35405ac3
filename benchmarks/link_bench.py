"""The host board's framed link (docs/wire.md): a `step` round trip and events per second
to one subscriber, over the pty and over TCP.

    python benchmarks/link_bench.py [--steps 3000] [--seconds 3]

Starts the development variant of the host board (as `hsx board run` does), loads a
task paused and times `step {pid}` round trips one after the other from a small Python
client (tests/port/framedclient.py: COBS, CRC and cbor2 in Python, so the client's own
time is in the figure); then lets a task print a short line in a loop, subscribed to
`stdout` only, and counts the events that arrive. Targets (issue 24): a step round trip
<= 0.2 ms and >= 5,000 events/s over the pty.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import termios
import time
import tty
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "port"))

from boardkit import image, serving  # noqa: E402
from framedclient import FramedClient  # noqa: E402


def client(url: str) -> FramedClient:
    parts = urlsplit(url)
    if parts.scheme == "socket":
        host = FramedClient.tcp(parts.hostname, parts.port)
    else:
        fd = os.open(parts.path, os.O_RDWR | os.O_NOCTTY)
        tty.setraw(fd, termios.TCSANOW)
        host = FramedClient(fd=fd)
    host.hello()
    return host


def step_round_trips(host: FramedClient, pid: int, count: int) -> list[float]:
    times = []
    for _ in range(count):
        start = time.perf_counter()
        host.request("step", pid=pid)
        times.append(time.perf_counter() - start)
    return times


def events_per_second(host: FramedClient, pid: int, seconds: float) -> float:
    host.request("events.subscribe", categories=["stdout"], pids=[pid])
    host.request("resume", pid=pid)
    host.wait_event(lambda e: e["type"] == "stdout")
    start, received = time.perf_counter(), 0
    while time.perf_counter() - start < seconds:
        host.pump(0.1)
        received += len(host.events())
    elapsed = time.perf_counter() - start
    host.request("pause", pid=pid)
    return received / elapsed


def measure(listen: str, steps: int, seconds: float) -> dict:
    out = tempfile.mkdtemp()
    with serving("development", listen) as board:
        host = client(board.url)
        pid = host.load(image("spin", out), paused=True)["pid"]
        times = step_round_trips(host, pid, steps)
        chatter = host.load(image("chatter", out), paused=True)["pid"]
        rate = events_per_second(host, chatter, seconds)
        host.close()
    return {"link": listen, "step_median_ms": statistics.median(times) * 1000,
            "step_mean_ms": statistics.fmean(times) * 1000, "events_per_s": rate}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=3000)
    parser.add_argument("--seconds", type=float, default=3.0)
    args = parser.parse_args()
    for listen in ("pty", "socket://127.0.0.1:0"):
        r = measure(listen, args.steps, args.seconds)
        print(f"{r['link']:22} step round trip median {r['step_median_ms']:.3f} ms "
              f"(mean {r['step_mean_ms']:.3f}), {r['events_per_s']:,.0f} stdout events/s")


if __name__ == "__main__":
    main()
