"""Executive daemon benchmarks: what a debugger or shell feels over protocol v1.

    python benchmarks/server_bench.py [--seconds S] [--json]

Starts `hsx execd --port 0` as a separate process (so client and server do not share a
GIL, as in real use) and measures over loopback:

1. `step` round trip: `step {pid, count: 1}` on a paused task, median and p99
   (the prior executive: 0.69 ms median), and the CPU time the daemon and the client
   spend per round trip; beside it its floors on this machine: the same line echoed
   by a bare server in its own process (no parsing, no work) written four ways: a
   blocking socket loop, the same with both ends looking for the next line before they
   sleep (as hsx's client and daemon do), asyncio's own loop, and uvloop (when
   installed).
2. Events per second delivered to one subscriber, one `Client` reading (and JSON-decoding)
   as fast as it can: `stdout` of a task printing in a tight loop, and `scheduler` events
   of two tasks switching every instruction (more than any reader takes: the executive
   drops the excess, with a warning, and keeps running).
3. Request latency while 8 tasks run at full speed: `ping` and `ps` round trips while
   the auto clock keeps 8 busy tasks running.
"""
from __future__ import annotations

import argparse
import base64
import json
import os
import socket
import statistics
import subprocess
import sys
import time

from hsx.client import Client
from hsx.image.hxe import write_hxe
from hsx.toolchain.build import build_source

LOOP = """
.text
.entry start
start:
    ADDI R1, R1, 1
    JMP start
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


def image(source: str, name: str) -> str:
    return base64.b64encode(write_hxe(build_source(source, filename=f"{name}.mvasm",
                                                   app_name=name))).decode()


class Daemon:
    loop = ""               # HSX_EVENT_LOOP for the daemon ("": uvloop where installed)

    def __enter__(self) -> "Daemon":
        env = {**os.environ, "HSX_EVENT_LOOP": self.loop}
        self.proc = subprocess.Popen([sys.executable, "-m", "hsx", "execd", "--port", "0"],
                                     stdout=subprocess.PIPE, text=True, env=env)
        line = self.proc.stdout.readline()
        if "listening on" not in line:
            raise SystemExit(f"execd did not start: {line!r}")
        self.port = int(line.rsplit(":", 1)[1])
        return self

    def client(self) -> Client:
        return Client("127.0.0.1", self.port, timeout=30)

    def __exit__(self, *exc) -> None:
        with self.client() as c:
            c.request("shutdown")
        self.proc.wait(10)


def cpu_seconds(pid: int) -> float | None:
    """CPU time a process has used so far (Linux; None elsewhere).  On a shared machine
    the daemon may get a fraction of a core: its CPU time per event is the figure that
    survives that (1e6 / it = events/s on a core of its own).  From `schedstat` (exact
    nanoseconds) where there is one, else `stat` (clock ticks, sampled)."""
    try:
        with open(f"/proc/{pid}/schedstat") as stat:
            return int(stat.read().split()[0]) / 1e9
    except (OSError, ValueError, IndexError):
        pass
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def percentiles(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    return {"median_ms": round(statistics.median(ordered) * 1000, 3),
            "p99_ms": round(ordered[int(len(ordered) * 0.99) - 1] * 1000, 3),
            "max_ms": round(ordered[-1] * 1000, 3), "n": len(ordered)}


def bench_step(seconds: float) -> dict[str, float]:
    with Daemon() as d, d.client() as c:
        pid = c.request("load", image=image(LOOP, "loop"), paused=True)["pid"]
        for _ in range(200):                                  # warm up
            c.request("step", pid=pid, count=1)
        samples = []
        loop = next((e["message"].rsplit("(", 1)[1].split()[0]
                     for e in c.request("dmesg")["logs"] if "event loop)" in e["message"]),
                    "asyncio")                      # (a daemon from before it said so)
        cpu_before, client_before = cpu_seconds(d.proc.pid), time.process_time()
        started = time.perf_counter()
        deadline = started + seconds
        while time.perf_counter() < deadline:
            sent = time.perf_counter()
            c.request("step", pid=pid, count=1)
            samples.append(time.perf_counter() - sent)
        client_us = (time.process_time() - client_before) / len(samples) * 1e6
        cpu = daemon_cpu(d, cpu_before, time.perf_counter() - started, len(samples))
        if "daemon_cpu_us_per_event" in cpu:
            cpu["daemon_cpu_us_per_round_trip"] = cpu.pop("daemon_cpu_us_per_event")
        return {**percentiles(samples), **cpu,
                "client_cpu_us_per_round_trip": round(client_us, 1), "loop": loop}


LOOK_S = 0.0002                # how long a "looking" side polls before it sleeps

# `looking`: both ends look for the next line (non-blocking recv, sched_yield between)
# for up to LOOK_S before they sleep in recv, as hsx's client and daemon do.
BLOCKING_ECHO_SERVER = f"""
import os
import socket
import sys
import time

look = sys.argv[1] == "looking"
server = socket.create_server(("127.0.0.1", 0))
print(server.getsockname()[1], flush=True)
conn, _ = server.accept()
conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


def receive():
    until = time.perf_counter() + {LOOK_S}
    while look:
        try:
            return conn.recv(65536, socket.MSG_DONTWAIT)
        except BlockingIOError:
            if time.perf_counter() >= until:
                break
            os.sched_yield()
    return conn.recv(65536)


while data := receive():
    conn.sendall(data)
"""

ECHO_SERVER = """
import asyncio
import sys

if sys.argv[1] == "uvloop":
    import uvloop
    asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())

class Echo(asyncio.Protocol):
    def connection_made(self, transport):
        self.transport = transport

    def data_received(self, data):
        self.transport.write(data)

async def main():
    server = await asyncio.get_running_loop().create_server(Echo, "127.0.0.1", 0)
    print(server.sockets[0].getsockname()[1], flush=True)
    await asyncio.sleep(3600)

asyncio.run(main())
"""


def echo_loops() -> list[str]:
    can_look = hasattr(socket, "MSG_DONTWAIT") and hasattr(os, "sched_yield")
    looking = ["looking"] if can_look else []
    try:
        import uvloop  # noqa: F401
    except ImportError:
        return ["blocking", *looking, "asyncio"]
    return ["blocking", *looking, "asyncio", "uvloop"]


def bench_echo_floor(seconds: float, loop: str = "asyncio") -> dict[str, float]:
    """A `step` line echoed by a bare server: what any daemon's round trip costs here
    before it does anything (two processes, loopback TCP, the loop when there is one)."""
    code = BLOCKING_ECHO_SERVER if loop in ("blocking", "looking") else ECHO_SERVER
    proc = subprocess.Popen([sys.executable, "-c", code, loop], stdout=subprocess.PIPE,
                            text=True)
    try:
        port = int(proc.stdout.readline())
        with socket.create_connection(("127.0.0.1", port)) as sock:
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            line = b'{"version":1,"cmd":"step","id":1,"pid":1,"count":1}\n'
            samples = []
            deadline = time.perf_counter() + seconds
            while time.perf_counter() < deadline:
                started = time.perf_counter()
                sock.sendall(line)
                received = _look(sock) if loop == "looking" else b""
                while not received.endswith(b"\n"):
                    received += sock.recv(4096)
                samples.append(time.perf_counter() - started)
        return percentiles(samples)
    finally:
        proc.kill()
        proc.wait()


def _look(sock: socket.socket) -> bytes:
    """What arrives within LOOK_S, looked for without sleeping (b"" if nothing did)."""
    until = time.perf_counter() + LOOK_S
    while True:
        try:
            return sock.recv(4096, socket.MSG_DONTWAIT)
        except BlockingIOError:
            if time.perf_counter() >= until:
                return b""
            os.sched_yield()


def bench_events(seconds: float, category: str) -> dict[str, float]:
    """`stdout`: one task printing in a loop (the kernel's output path limits the rate).
    `scheduler`: two looping tasks switching every instruction, far more events than
    any reader takes: what the server can push through one connection."""
    with Daemon() as d, d.client() as c:
        c.open_session("bench", max_events=8192)
        c.subscribe([category])
        if category == "stdout":
            c.request("load", image=image(CHATTY, "chatty"))
        else:
            c.request("load", image=image(LOOP, "a"))
            c.request("load", image=image(LOOP, "b"))
        received = lost = 0
        c.next_event(timeout=5)
        cpu_before = cpu_seconds(d.proc.pid)
        started = time.perf_counter()
        deadline = started + seconds
        while time.perf_counter() < deadline:
            event = c.next_event(timeout=1)
            if event is None:
                break
            if event["type"] == "warning":
                lost += event["data"]["dropped"]
            else:
                received += 1
        elapsed = time.perf_counter() - started
        return {"delivered_per_s": round(received / elapsed), "dropped_per_s":
                round(lost / elapsed), "seconds": round(elapsed, 2),
                **daemon_cpu(d, cpu_before, elapsed, received)}


def daemon_cpu(daemon: "Daemon", before: float | None, elapsed: float,
               events: int) -> dict[str, float]:
    """The daemon's share of a core and its CPU time per delivered event since `before`."""
    after = cpu_seconds(daemon.proc.pid)
    if before is None or after is None or not events:
        return {}
    return {"daemon_cpu_share": round((after - before) / elapsed, 2),
            "daemon_cpu_us_per_event": round((after - before) / events * 1e6, 1)}


def bench_busy(seconds: float) -> dict[str, dict[str, float]]:
    with Daemon() as d, d.client() as c:
        for n in range(8):
            c.request("load", image=image(LOOP, f"busy{n}"))
        time.sleep(0.5)                                       # let the clock adapt its batch
        results = {}
        for cmd in ("ping", "ps"):
            samples = []
            deadline = time.perf_counter() + seconds / 2
            while time.perf_counter() < deadline:
                started = time.perf_counter()
                c.request(cmd)
                samples.append(time.perf_counter() - started)
            results[cmd] = percentiles(samples)
        clock = c.request("clock")["clock"]
        results["clock"] = {"instructions_per_s": clock["ips"], "batch": clock["step_size"]}
        return results


class _Opcodes:
    """Counts the Python bytecodes a call executes (sys.settrace opcode events): a
    deterministic measure of the Python work a request costs, whatever the machine's load."""

    def __init__(self) -> None:
        self.count = 0

    def _trace(self, frame, event, arg):
        if event == "call":
            frame.f_trace_opcodes = True
        elif event == "opcode":
            self.count += 1
        return self._trace

    def run(self, fn) -> int:
        self.count = 0
        sys.settrace(self._trace)
        try:
            fn()
        finally:
            sys.settrace(None)
        return self.count

    async def run_with_a_loop_turn(self, fn) -> int:
        """`fn()` and what the loop runs next because of it (a task it woke), less what
        a loop turn costs anyway."""
        import asyncio
        counts = []
        for call in (fn, lambda: None):
            self.count = 0
            sys.settrace(self._trace)
            try:
                call()
                await asyncio.sleep(0)
            finally:
                sys.settrace(None)
            counts.append(self.count)
        return counts[0] - counts[1]


def count_step_opcodes() -> dict[str, int]:
    """Bytecodes of one `step` request: in the daemon (a Server in this process on
    asyncio's loop, a connection whose transport only keeps what is written; with what
    the loop runs next because of the request, such as a woken clock) and in the blocking
    Client (against a socket that already holds the reply)."""
    import asyncio

    from hsx.server import Server, ServerConfig
    from hsx.server.connection import Connection

    class Transport(asyncio.Transport):
        def __init__(self) -> None:
            super().__init__()
            self.written = b""

        def write(self, data) -> None:
            self.written = bytes(data)

        def is_closing(self) -> bool:
            return False

        def get_extra_info(self, name, default=None):
            return ("127.0.0.1", 1) if name == "peername" else default

        def set_write_buffer_limits(self, high=None, low=None) -> None:
            pass

    async def server_side() -> tuple[int, bytes]:
        server = Server(ServerConfig(port=0))
        await server.start()
        try:
            conn, transport = Connection(server), Transport()
            conn.connection_made(transport)
            conn.data_received(json.dumps({"cmd": "load", "image": image(LOOP, "loop"),
                                           "paused": True}).encode() + b"\n")
            line = b'{"version":1,"cmd":"step","id":1,"pid":1,"count":1}\n'
            for _ in range(50):
                conn.data_received(line)
            await asyncio.sleep(0.01)
            count = await _Opcodes().run_with_a_loop_turn(lambda: conn.data_received(line))
            return count, transport.written
        finally:
            server.request_shutdown()

    daemon, reply = asyncio.run(server_side())
    with socket.create_server(("127.0.0.1", 0)) as listener:
        client = Client("127.0.0.1", listener.getsockname()[1])
        peer, _ = listener.accept()
        with client, peer:
            counts = []
            for _ in range(3):
                message = json.loads(reply)
                message["id"] = client._next_id
                peer.sendall(json.dumps(message).encode() + b"\n")
                time.sleep(0.01)
                counts.append(_Opcodes().run(lambda: client.request("step", pid=1, count=1)))
                peer.recv(65536)
    return {"daemon_opcodes_per_step": daemon, "client_opcodes_per_step": min(counts)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="per measurement")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--loop", choices=["asyncio", "uvloop"], default=None,
                        help="the daemon's event loop (default: uvloop where installed)")
    parser.add_argument("--pin", type=int, metavar="CPU", default=None,
                        help="run this process and the daemons it starts on one CPU (Linux): "
                             "a round trip then costs the CPU time of both sides, without "
                             "the cross-CPU wake-ups whose cost varies with where the "
                             "scheduler puts them (large on a VM)")
    parser.add_argument("--only", choices=["step", "events", "busy", "opcodes"], default=None,
                        help="one group of measurements: step (with its floors), events, "
                             "busy, or opcodes (Python bytecodes per step, no sockets)")
    args = parser.parse_args()
    if args.pin is not None:
        os.sched_setaffinity(0, {args.pin})          # inherited by every process started
    Daemon.loop = args.loop or ""
    results: dict[str, dict] = {}
    if args.only in (None, "step"):
        results["step_round_trip"] = bench_step(args.seconds)
        for loop in echo_loops():
            results[f"{loop}_echo_round_trip"] = bench_echo_floor(args.seconds, loop)
        echo = results[f"{results['step_round_trip']['loop']}_echo_round_trip"]
        results["step_round_trip"]["vs_echo"] = round(
            results["step_round_trip"]["median_ms"] / echo["median_ms"], 2)
    if args.only in (None, "opcodes"):
        results["python_work"] = count_step_opcodes()
    if args.only in (None, "events"):
        results["stdout_events_to_one_subscriber"] = bench_events(args.seconds, "stdout")
        results["scheduler_events_to_one_subscriber"] = bench_events(args.seconds, "scheduler")
    if args.only in (None, "busy"):
        results["latency_with_8_busy_tasks"] = bench_busy(args.seconds)
    if args.json:
        print(json.dumps(results))
        return
    for name, figures in results.items():
        print(f"{name}:")
        for key, value in figures.items():
            print(f"  {key}: {value}")


if __name__ == "__main__":
    main()
