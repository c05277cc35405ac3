"""A small DAP client for the tests: `hsx dap` as a child process on stdio, requests
answered in order, events collected as they come."""
from __future__ import annotations

import json
import re
import queue
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any, Callable

PROGRAMS = Path(__file__).parent / "programs"
TIMEOUT = 20.0


def line_of(source: Path, marker: str) -> int:
    """The 1-based line of `source` whose comment says `line: marker`."""
    for number, text in enumerate(source.read_text().splitlines(), 1):
        if f"line: {marker} " in text + " ":
            return number
    raise AssertionError(f"no line marked {marker!r} in {source}")


def free_port() -> int:
    """A TCP port nothing listens on now (for an executive the adapter starts there)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def listens(port: int) -> bool:
    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) == 0


def wait_until(condition: Callable[[], bool], what: str, timeout: float = TIMEOUT) -> None:
    """Poll `condition` until it holds; fail saying `what` did not happen in time."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} within {timeout} s")
        time.sleep(0.05)


def frame(body: dict[str, Any]) -> bytes:
    data = json.dumps(body).encode()
    return b"Content-Length: %d\r\n\r\n" % len(data) + data


class DapClient:
    """Talks DAP to an adapter: `request(cmd, **arguments)` returns the response
    (success or not); `wait_event(name, predicate)` the first matching event."""

    def __init__(self, proc: subprocess.Popen | None = None,
                 sock: socket.socket | None = None) -> None:
        self.proc, self.sock = proc, sock
        self.events: list[dict[str, Any]] = []
        self._seen: dict[str, int] = {}     # per event name: how many wait_event passed
        self._messages: queue.Queue = queue.Queue()
        self._responses: dict[int, dict[str, Any]] = {}
        self._seq = 0
        self._cond = threading.Condition()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    @classmethod
    def start(cls, *extra: str) -> DapClient:
        proc = subprocess.Popen([sys.executable, "-m", "hsx", "dap", *extra],
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE)
        return cls(proc=proc)

    # ------------------------------------------------------------------ wire

    def _raw_read(self, n: int) -> bytes:
        if self.sock is not None:
            return self.sock.recv(n)
        return self.proc.stdout.read1(n)

    def send_bytes(self, data: bytes) -> None:
        if self.sock is not None:
            self.sock.sendall(data)
        else:
            self.proc.stdin.write(data)
            self.proc.stdin.flush()

    def _read(self) -> None:
        buf = b""
        while True:
            try:
                chunk = self._raw_read(65536)
            except OSError:
                chunk = b""
            if not chunk:
                with self._cond:
                    self._cond.notify_all()
                return
            buf += chunk
            while True:
                end = buf.find(b"\r\n\r\n")
                if end < 0:
                    break
                header = buf[:end].decode()
                assert header.startswith("Content-Length: "), f"bad header {header!r}"
                length = int(header.split(":")[1])
                if len(buf) < end + 4 + length:
                    break
                message = json.loads(buf[end + 4:end + 4 + length])
                buf = buf[end + 4 + length:]
                with self._cond:
                    if message["type"] == "response":
                        self._responses[message["request_seq"]] = message
                    elif message["type"] == "event":
                        self.events.append(message)
                    else:
                        raise AssertionError(f"unexpected message {message}")
                    self._cond.notify_all()

    # ------------------------------------------------------------------ requests

    def send(self, command: str, **arguments: Any) -> int:
        self._seq += 1
        self.send_bytes(frame({"seq": self._seq, "type": "request", "command": command,
                               "arguments": arguments}))
        return self._seq

    def response(self, seq: int, timeout: float = TIMEOUT) -> dict[str, Any]:
        with self._cond:
            if not self._cond.wait_for(lambda: seq in self._responses or self.closed,
                                       timeout):
                raise AssertionError(f"no response to request {seq} within {timeout} s")
            if seq not in self._responses:
                raise AssertionError(f"the adapter ended before answering request {seq}: "
                                     f"{self.stderr()}")
            return self._responses.pop(seq)

    def request(self, command: str, timeout: float = TIMEOUT, **arguments: Any) -> dict[str, Any]:
        return self.response(self.send(command, **arguments), timeout)

    def ok(self, command: str, **arguments: Any) -> dict[str, Any]:
        """The body of a request that must succeed."""
        reply = self.request(command, **arguments)
        assert reply["success"], f"{command} failed: {reply.get('message')}"
        return reply.get("body", {})

    def fails(self, command: str, **arguments: Any) -> str:
        """The message of a request that must fail."""
        reply = self.request(command, **arguments)
        assert not reply["success"], f"{command} should have failed: {reply}"
        assert reply["message"] and "Traceback" not in reply["message"]
        return reply["message"]

    # ------------------------------------------------------------------ events

    @property
    def closed(self) -> bool:
        return not self._reader.is_alive()

    def wait_event(self, name: str, predicate: Callable[[dict], bool] = lambda b: True,
                   timeout: float = TIMEOUT) -> dict[str, Any]:
        """The body of the next `name` event that matches (after the `name` event this
        returned last)."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while True:
                for index in range(self._seen.get(name, 0), len(self.events)):
                    event = self.events[index]
                    if event["event"] == name and predicate(event.get("body", {})):
                        self._seen[name] = index + 1
                        return event.get("body", {})
                left = deadline - time.monotonic()
                if left <= 0 or self.closed:
                    names = [e["event"] for e in self.events[self._seen.get(name, 0):]]
                    raise AssertionError(f"no {name} event within {timeout} s; "
                                         f"since then: {names}")
                self._cond.wait(left)

    def output(self, category: str | None = None) -> str:
        with self._cond:
            return "".join(e["body"]["output"] for e in self.events
                           if e["event"] == "output"
                           and (category is None or e["body"].get("category") == category))

    def wait_output(self, text: str, category: str | None = None,
                    timeout: float = TIMEOUT) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            out = self.output(category)
            if text in out:
                return out
            time.sleep(0.02)
        raise AssertionError(f"{text!r} not in the output within {timeout} s: "
                             f"{self.output(category)!r}")

    # ------------------------------------------------------------------ sessions

    def initialize(self) -> dict[str, Any]:
        return self.ok("initialize", clientID="tests", adapterID="hsx", linesStartAt1=True,
                       columnsStartAt1=True, pathFormat="path")

    def launch(self, program: Path, execd: tuple[str, int], lines: dict[str, list] | None = None,
               **extra: Any) -> int:
        """initialize, launch `program` on `execd`, setBreakpoints per source (file name
        -> lines or breakpoint dicts, all must verify), configurationDone; the task's PID."""
        self.initialize()
        seq = self.send("launch", program=str(program), host=execd[0], port=execd[1], **extra)
        self.wait_event("initialized", timeout=120)
        for name, wanted in (lines or {}).items():
            source = program.parent / name
            result = self.ok("setBreakpoints", source={"path": str(source)},
                             breakpoints=[b if isinstance(b, dict) else {"line": b}
                                          for b in wanted])
            assert all(bp["verified"] for bp in result["breakpoints"]), result
        self.ok("configurationDone")
        assert self.response(seq, timeout=120)["success"]
        return self.debugged_pid()

    def debugged_pid(self) -> int:
        """The PID the adapter said it debugs."""
        match = re.search(r"debugging \S+ \(PID (\d+)\)", self.output())
        assert match, self.output()
        return int(match.group(1))

    def stopped(self, reason: str | None = None, timeout: float = TIMEOUT) -> dict[str, Any]:
        return self.wait_event("stopped", lambda b: reason is None or b["reason"] == reason,
                               timeout)

    def top_frame(self, thread: int) -> dict[str, Any]:
        return self.ok("stackTrace", threadId=thread, startFrame=0, levels=20)["stackFrames"][0]

    def scope_variables(self, frame_id: int, scope: str) -> dict[str, dict[str, Any]]:
        scopes = self.ok("scopes", frameId=frame_id)["scopes"]
        ref = next(s["variablesReference"] for s in scopes if s["name"] == scope)
        return {v["name"]: v for v in self.ok("variables", variablesReference=ref)["variables"]}

    def stderr(self) -> str:
        if self.proc is None or self.proc.poll() is None:
            return ""
        return self.proc.stderr.read().decode(errors="replace")

    def close(self) -> None:
        if self.proc is not None:
            if self.proc.poll() is None:
                try:
                    self.request("disconnect", timeout=10)
                except (AssertionError, OSError):
                    pass
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
            for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
                stream.close()
        if self.sock is not None:
            self.sock.close()
