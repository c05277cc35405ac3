"""The executive's event path without sockets: CPU time per delivered event.

    python benchmarks/event_path_bench.py [--cycles 300] [--profile] [--default-gc]

One executive (`Server`, started on its own loop, auto clock stopped) with one
connection whose transport only counts what it is given.  Each cycle runs the kernel
for 200 instructions and flushes the connection's events, as the auto clock and the
loop do between two reads of the socket: the kernel building events, the hub matching
them, the queue, JSON encoding and the joined writes -- everything the daemon's thread
spends on an event except the socket itself.  The inverse of a figure is the most
events per second that thread could deliver over any transport.

`scheduler`: two looping tasks switching every instruction; `stdout`: a task printing
`tick` in a loop (each write is a mailbox send and receive too); `trace`: a traced
counted loop, one `trace_step` per instruction.  `--profile` prints cProfile's top
functions for each.  The garbage collector is tuned as `hsx execd` tunes it;
`--default-gc` keeps Python's defaults.
"""
from __future__ import annotations

import argparse
import asyncio
import cProfile
import json
import pstats
import time

from hsx.cli.execd import _tune_gc
from hsx.server.connection import Connection
from hsx.server.server import Server, ServerConfig

from server_bench import CHATTY, LOOP, image


class CountingTransport:
    def __init__(self) -> None:
        self.lines = self.writes = 0

    def write(self, data: bytes) -> None:
        self.lines += data.count(b"\n")
        self.writes += 1

    def is_closing(self) -> bool:
        return False


async def measure(kind: str, cycles: int, profile: bool) -> str:
    server = Server(ServerConfig(port=0))
    await server.start()
    server.clock.stop()
    conn = Connection(server)
    conn.transport = transport = CountingTransport()

    def request(**fields):
        reply = server.handle_line(conn, json.dumps(fields).encode())
        assert reply["status"] == "ok", reply
        return reply

    session = request(cmd="session.open", client="bench",
                      capabilities={"max_events": 8192})["session"]["id"]
    if kind == "trace":
        pid = request(cmd="load", image=image(LOOP, "loop"), paused=True)["pid"]
        request(cmd="events.subscribe", session=session, categories=["trace_step"], pids=[pid])
        request(cmd="trace.on", session=session, pid=pid, size=1024)
        request(cmd="resume", session=session, pid=pid)
    else:
        request(cmd="events.subscribe", session=session, categories=[kind])
        if kind == "stdout":
            request(cmd="load", image=image(CHATTY, "chatty"))
        else:
            request(cmd="load", image=image(LOOP, "a"))
            request(cmd="load", image=image(LOOP, "b"))
    kernel = server.kernel

    def run(n: int) -> None:
        for _ in range(n):
            kernel.run(200)
            conn.flush_events()

    run(20)
    transport.lines = transport.writes = 0
    started = time.process_time()
    run(cycles)
    cpu = time.process_time() - started
    line = (f"{kind:9s} {cpu / transport.lines * 1e6:6.2f} us CPU per event "
            f"({transport.lines} events in {transport.writes} writes)")
    if profile:
        profiler = cProfile.Profile()
        profiler.runcall(run, cycles)
        pstats.Stats(profiler).sort_stats("tottime").print_stats(15)
    server.request_shutdown()
    return line


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cycles", type=int, default=300)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--default-gc", action="store_true",
                        help="keep Python's garbage collector settings (hsx execd tunes them)")
    args = parser.parse_args()
    if not args.default_gc:
        _tune_gc()
    for kind in ("scheduler", "stdout", "trace"):
        print(asyncio.run(measure(kind, args.cycles, args.profile)))


if __name__ == "__main__":
    main()
