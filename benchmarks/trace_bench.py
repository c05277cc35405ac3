"""`trace_step` events delivered to one subscriber over loopback.

    python benchmarks/trace_bench.py [--seconds 3]

`hsx execd` in its own process runs a counted loop with tracing on (`trace.on`); one
client subscribed to `trace_step` reads and decodes events as fast as it can. Prints
events received per second and those the server dropped (its per-session queue, the
documented back-pressure).
"""
from __future__ import annotations

import argparse
import time

from server_bench import LOOP, Daemon, cpu_seconds, daemon_cpu, image


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    args = parser.parse_args()
    with Daemon() as daemon, daemon.client() as c:
        pid = c.request("load", image=image(LOOP, "loop"), paused=True)["pid"]
        c.open_session("bench", pid_lock=pid, max_events=65536)
        c.subscribe(["trace_step"], pids=[pid])
        c.request("trace.on", pid=pid, size=1024)
        c.request("resume", pid=pid)
        c.next_event(timeout=5)
        received = lost = 0
        cpu_before = cpu_seconds(daemon.proc.pid)
        started = time.perf_counter()
        while time.perf_counter() - started < args.seconds:
            event = c.next_event(timeout=1)
            if event is None:
                break
            if event["type"] == "warning":
                lost += event["data"].get("dropped", 0)
            else:
                received += 1
        elapsed = time.perf_counter() - started
        cpu = daemon_cpu(daemon, cpu_before, elapsed, received)
        print(f"trace_step events: {received / elapsed:,.0f}/s delivered, "
              f"{lost / elapsed:,.0f}/s dropped ({elapsed:.1f} s)")
        if cpu:
            print(f"daemon: {cpu['daemon_cpu_share']:.0%} of a core, "
                  f"{cpu['daemon_cpu_us_per_event']} us CPU per event")


if __name__ == "__main__":
    main()
