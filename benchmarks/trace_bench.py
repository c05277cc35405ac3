"""`trace_step` events delivered to one subscriber over loopback.

    python benchmarks/trace_bench.py [--seconds 3]

`hsx execd` in its own process runs a counted loop with tracing on (`trace.on`); one
client subscribed to `trace_step` reads and decodes events as fast as it can. Prints
events received per second and those the server dropped (its per-session queue, the
documented back-pressure), the daemon's CPU time per event and its share of a core, and
the reader's share: at 100 % the reader, not the daemon, sets the delivered rate.
"""
from __future__ import annotations

import argparse
import time

from server_bench import LOOP, Daemon, cpu_seconds, daemon_cpu, image


def cpu_wait_seconds(pid: int) -> float | None:
    """Time a process has spent ready to run but waiting for a CPU (Linux schedstat):
    when the daemon's share of a core is low, this says whether neighbours took it."""
    try:
        with open(f"/proc/{pid}/schedstat") as stat:
            return int(stat.read().split()[1]) / 1e9
    except (OSError, IndexError, ValueError):
        return None


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
        wait_before = cpu_wait_seconds(daemon.proc.pid)
        reader_before = time.process_time()
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
        reader = (time.process_time() - reader_before) / elapsed
        wait_after = cpu_wait_seconds(daemon.proc.pid)
        cpu = daemon_cpu(daemon, cpu_before, elapsed, received)
        print(f"trace_step events: {received / elapsed:,.0f}/s delivered, "
              f"{lost / elapsed:,.0f}/s dropped ({elapsed:.1f} s)")
        if cpu:
            print(f"daemon: {cpu['daemon_cpu_share']:.0%} of a core, "
                  f"{cpu['daemon_cpu_us_per_event']} us CPU per event; "
                  f"the reader (this process): {reader:.0%} of a core")
        if wait_before is not None and wait_after is not None:
            print(f"daemon waited for a CPU {(wait_after - wait_before) / elapsed:.0%} "
                  "of the time (other processes had it)")


if __name__ == "__main__":
    main()
