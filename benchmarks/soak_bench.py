"""Soak: every external input spammed at tasks that never read, RSS sampled every second.

    python benchmarks/soak_bench.py [--seconds 60]

An executive (in this process, so the CAN sender shares python-can's virtual bus with it;
loopback sockets for everything else) runs a task that attaches to CAN and then never
reads a frame, its stdin or its mailbox, plus a task printing in a loop.  For
`--seconds` (bounded; it stops by itself) these run flat out, each on its own thread:

* CAN frames on the task's bus;
* `stdio {op: write}` to the task's stdin (refused with stdin_full once full);
* `send` to the mailbox the task bound (refused with mbx_wouldblock once full);
* requests pipelined on a connection whose replies are never read;
* a subscriber to every event that never reads its socket;
* connections opened and dropped, and bad lines (garbage, deep nesting);
* a hoarder taking connections, sessions, breakpoints and watches until each is refused
  (too_many_*), then letting them all go and starting again.

The process's RSS is recorded every second.  It must level off: the figure is the growth
over the second half of the run (which should be about zero) next to the first half's.
"""
from __future__ import annotations

import argparse
import json
import socket
import sys
import threading
import time
from pathlib import Path

import can

from hsx.client import Client, ProtocolError
from hsx.server import BackgroundServer, ServerConfig

sys.path.insert(0, str(Path(__file__).parent))
from server_bench import CHATTY, image  # noqa: E402

DEAF = """
.data
box: .asciz "app:sink"
.bss
buf: .zero 8
.text
.entry start
start:
    LDI32 R1, box
    LDI R2, 0
    LDI R3, 0
    SVC MOD=5, FN=1          ; BIND app:sink (never read)
    LDI32 R1, buf
    SVC MOD=2, FN=1          ; one CAN RX: attached to the bus, then never reads again
spin:
    LDI R0, 5
    SVC MOD=6, FN=0          ; sleep 5 ms, for ever
    JMP spin
"""


def rss_mib() -> float:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def spammers(host: str, port: int, pid: int, stop: threading.Event) -> list:
    counts = {"can": 0, "stdin": 0, "mailbox": 0, "pipelined": 0, "reconnects": 0,
              "hoarded": 0, "refused": 0}

    def can_frames() -> None:
        bus = can.Bus(interface="virtual", channel="hsx")
        try:
            while not stop.is_set():
                bus.send(can.Message(arbitration_id=0x123, data=b"12345678"))
                counts["can"] += 1
        finally:
            bus.shutdown()

    def requests(cmd: str, key: str, **fields) -> None:
        with Client(host, port, timeout=30) as client:
            while not stop.is_set():
                try:
                    client.request(cmd, **fields)
                except ProtocolError:
                    pass                          # full: refused, as documented
                counts[key] += 1

    def pipelined() -> None:
        with socket.create_connection((host, port)) as sock:
            sock.settimeout(0.5)
            line = b'{"cmd":"ps"}\n' * 64
            while not stop.is_set():
                try:
                    sock.sendall(line)
                    counts["pipelined"] += 64
                except (socket.timeout, OSError):
                    time.sleep(0.01)              # the server stopped reading us: fine

    def deaf_subscriber() -> None:
        with socket.create_connection((host, port)) as sock:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            sock.sendall(b'{"cmd":"events.subscribe","categories":["stdout","task_state",'
                         b'"input_dropped","mailbox_"]}\n')
            stop.wait()

    def churn() -> None:
        while not stop.is_set():
            with socket.create_connection((host, port)) as sock:
                sock.sendall(b"\xff\xfe garbage\n" + b"[" * 100 + b"\n" +
                             b'{"cmd":"ping","id":"' + b"x" * 5000 + b'"}\n')
            counts["reconnects"] += 1

    def batch(conn, requests: list[dict]) -> list[dict]:
        """Send requests in one go, read every reply; count what was kept and refused."""
        sock, reader = conn
        sock.sendall(b"".join(json.dumps(r).encode() + b"\n" for r in requests))
        replies = [json.loads(reader.readline() or b'{"status": "closed"}') for _ in requests]
        for reply in replies:
            counts["hoarded" if reply.get("status") == "ok" else "refused"] += 1
        return replies

    def hoarder() -> None:
        while not stop.is_set():
            sock = socket.create_connection((host, port), timeout=30)
            held = [(sock, sock.makefile("rb"))]
            batch(held[0], [{"cmd": "session.open"}] * 20)
            batch(held[0], [{"cmd": "bp.set", "pid": pid, "addr": 0, "temporary": True,
                             "condition": f"R7 == {n}"} for n in range(1100)])
            watches = batch(held[0], [{"cmd": "watch.add", "pid": pid, "expr": 0x100 + 4 * n,
                                       "length": 4} for n in range(300)])
            while not stop.is_set():              # connections until one is turned away
                sock = socket.create_connection((host, port), timeout=30)
                held.append((sock, sock.makefile("rb")))
                if batch(held[-1], [{"cmd": "ping"}])[0].get("status") != "ok":
                    break
            batch(held[0], [{"cmd": "bp.clear_all", "pid": pid}] + [
                {"cmd": "watch.remove", "watch_id": w["watch"]["id"]}
                for w in watches if w.get("status") == "ok"])
            for sock, reader in held:
                reader.close()
                sock.close()

    targets = [hoarder, can_frames, lambda: requests("stdio", "stdin", op="write", pid=pid, data="x" * 64),
               lambda: requests("send", "mailbox", target="app:sink", data="y" * 64),
               pipelined, deaf_subscriber, churn]
    return [threading.Thread(target=t, daemon=True) for t in targets], counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=int, default=60)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    with BackgroundServer(ServerConfig(port=0)) as server:
        with Client(server.host, server.port) as client:
            pid = client.request("load", image=image(DEAF, "deaf"))["pid"]
            client.request("load", image=image(CHATTY, "chatty"))
            time.sleep(0.2)
            stop = threading.Event()
            threads, counts = spammers(server.host, server.port, pid, stop)
            for thread in threads:
                thread.start()
            samples = []
            started = time.monotonic()
            for second in range(args.seconds + 1):
                time.sleep(max(0.0, started + second - time.monotonic()))
                samples.append(round(rss_mib(), 1))
            stop.set()
            for thread in threads:
                thread.join(timeout=5)
            row = client.request("ps", pid=pid)["tasks"]["tasks"][0]
            clock = client.request("clock")["clock"]
    half = len(samples) // 2
    result = {"seconds": args.seconds, "rss_mib": samples,
              "growth_first_half_mib": round(max(samples[:half + 1]) - samples[0], 1),
              "growth_second_half_mib": round(max(samples[half:]) - samples[half], 1),
              "inputs": counts, "input_dropped": row["input_dropped"],
              "task_state": row["state"], "clock_running": clock["running"]}
    if args.json:
        print(json.dumps(result))
        return
    for second in range(0, len(samples), 5):
        print(f"t={second:3d}s  rss={samples[second]:7.1f} MiB")
    for key, value in result.items():
        if key != "rss_mib":
            print(f"{key}: {value}")


if __name__ == "__main__":
    main()
