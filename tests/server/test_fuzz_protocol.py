"""Protocol fuzzing (issue 17): a real `hsx execd` over a socket gets every command with
every argument replaced by hostile values -- wrong types, NaN/Infinity, huge and
negative numbers, deep nesting, lone surrogates, huge strings, bytes that are not UTF-8.
After each request: one well-formed reply with a documented error code (never
`internal_error`), the auto clock still running (a canary task keeps printing), the
persisted value intact; at the end no traceback on the daemon's stderr and the value
still there after a restart of the daemon.

Bounded for CI: a fixed number of examples (HSX_FUZZ_EXAMPLES to change it)."""
from __future__ import annotations

import json
import math
import os
import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from execdkit import readline
from hypothesis import HealthCheck, given, settings, strategies as st
from mvasmkit import CANARY
from serverkit import MOTOR, image_b64

from hsx.client import Client
from hsx.server.dispatch import Dispatcher
from hsx.server.handlers import GROUPS

EXAMPLES = int(os.environ.get("HSX_FUZZ_EXAMPLES", "300"))
DOCS = Path(__file__).parents[2] / "docs" / "protocol.md"
# Commands whose *valid* use ends or stops what the test watches; they are still fuzzed
# with hostile arguments through the others' shared fields, and tested on their own.
SPARED = {"shutdown", "clock.stop", "trace.export"}
RPM = 0x0102


def documented_codes() -> re.Pattern:
    """Every error code docs/protocol.md lists (`mbx_<status>` matches `mbx_` + anything)."""
    text = DOCS.read_text()
    tables = text[text.index("## Errors"):text.index("## Security")]
    tables += text[text.index("### Debugger errors"):text.index("### The prior")]
    codes = set()
    for row in re.findall(r"^\| (`[^|]*)\|", tables, re.M):
        codes.update(re.findall(r"`([^`]+)`", row))
    alternatives = [re.escape(c).replace(re.escape("<"), "<") for c in codes]
    alternatives = [re.sub(r"<[^>]*>", ".+", re.sub(r"\\(.)", r"\1", a)) for a in alternatives]
    return re.compile("|".join(f"(?:{a})" for a in alternatives))


COMMANDS = sorted(c.name for g in Dispatcher(GROUPS).groups for c in g.commands
                  if c.name not in SPARED)
FIELDS = {c.name: sorted(c.schema.fields) for g in Dispatcher(GROUPS).groups
          for c in g.commands if c.schema is not None}


def nested(depth: int):
    value: object = 1
    for _ in range(depth):
        value = [value]
    return value


HOSTILE = st.one_of(
    st.sampled_from([math.nan, math.inf, -math.inf, 1e308, -1e308, 2 ** 64, 2 ** 63 - 1,
                     -(2 ** 64), -1, 0, 1, 2, 3, 0xFFFF, 0x10000, 2 ** 32, 0.5, True, False,
                     None, "", " ", "\ud800", "a\udfffb", "0x", "-0x1", "1e9", "nan",
                     "x" * 5000, "/" + "p" * 300, "../../etc/passwd", "svc:stdio.out@1",
                     "(" * 3000, [], {}, [None], nested(40), nested(5), {"a": nested(3)}]),
    st.integers(-(2 ** 70), 2 ** 70),
    st.floats(),
    st.text(max_size=40),
    st.lists(st.integers(-5, 2 ** 33), max_size=4),
    st.dictionaries(st.text(max_size=4), st.integers(), max_size=3),
)


@st.composite
def requests(draw):
    cmd = draw(st.sampled_from(COMMANDS))
    fields = FIELDS.get(cmd, [])
    chosen = draw(st.lists(st.sampled_from(fields), unique=True, max_size=len(fields))) \
        if fields else []
    request = {"cmd": cmd, **{name: draw(HOSTILE) for name in chosen}}
    if draw(st.booleans()):
        request[draw(st.sampled_from(["op", "id", "version", "session", "pad"]))] = draw(HOSTILE)
    return request


class Daemon:
    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.stderr = open(tmp / "stderr.txt", "w+")
        self.proc = subprocess.Popen([sys.executable, "-m", "hsx", "execd", "--port", "0",
                                      "--state-dir", str(tmp / "state"),
                                      "--root", str(tmp / "fs")],
                                     stdout=subprocess.PIPE, stderr=self.stderr, text=True)
        line = readline(self.proc.stdout)
        assert "listening on" in line, line
        self.port = int(line.rsplit(":", 1)[1])

    def client(self) -> Client:
        return Client("127.0.0.1", self.port, timeout=30)

    def stop(self) -> str:
        if self.proc.poll() is None:
            with self.client() as c:
                c.request("shutdown")
            self.proc.wait(timeout=20)
        self.stderr.seek(0)
        return self.stderr.read()


@pytest.fixture(scope="module")
def rig(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("fuzz")
    daemon = Daemon(tmp)
    owner = daemon.client()
    canary = owner.request("load", image=image_b64(CANARY, "canary"))["pid"]
    motor = owner.request("load", image=image_b64(MOTOR, "motor"))["pid"]
    owner.open_session("guardian", pid_lock=[canary, motor])
    owner.request("val.set", oid=RPM, value=42.5)
    sock = socket.create_connection(("127.0.0.1", daemon.port), timeout=30)
    yield daemon, owner, canary, sock, sock.makefile("rb")
    sock.close()
    owner.close()
    stderr = daemon.stop()
    assert "Traceback" not in stderr, stderr[-3000:]
    again = Daemon(tmp)                      # the persisted value survived everything
    try:
        with again.client() as c:
            c.request("load", image=image_b64(MOTOR, "motor"))
            assert c.request("val.get", oid=RPM)["value"]["value"] == 42.5
    finally:
        again.stop()


CODES = documented_codes()


def exchange(sock, reader, line: bytes) -> dict:
    """Send one line; the reply (events a fuzzed subscribe asked for are skipped)."""
    sock.sendall(line + b"\n")
    while True:
        raw = reader.readline()
        assert raw.endswith(b"\n"), "the connection closed instead of replying"
        reply = json.loads(raw)
        assert isinstance(reply, dict)
        if "status" in reply:
            assert reply.get("version") == 1
            return reply


def clock_runs(owner: Client, canary: int) -> None:
    owner.request("clock.start")
    owner.request("clock.rate", rate=0)
    before = owner.request("ps", pid=canary)["tasks"]["tasks"][0]["instructions"]
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        row = owner.request("ps", pid=canary)["tasks"]["tasks"][0]
        assert row["state"] in ("ready", "sleeping"), row
        if row["instructions"] > before:
            return
        time.sleep(0.002)
    raise AssertionError("the canary stopped: the auto clock no longer runs")


@given(requests())
@settings(max_examples=EXAMPLES, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
def test_every_command_with_hostile_arguments(rig, request):
    daemon, owner, canary, sock, reader = rig
    reply = exchange(sock, reader, json.dumps(request, allow_nan=True).encode())
    assert reply["status"] in ("ok", "error"), reply
    if reply["status"] == "error":
        assert reply["error"] != "internal_error", (request, reply)
        assert CODES.fullmatch(reply["error"]), (request, reply)
        assert isinstance(reply.get("message"), str) and reply["message"]
    clock_runs(owner, canary)
    assert owner.request("val.get", oid=RPM)["value"]["value"] == 42.5


@given(st.binary(max_size=200))
@settings(max_examples=max(EXAMPLES // 3, 10), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_raw_bytes(rig, data):
    daemon, owner, canary, sock, reader = rig
    line = data.replace(b"\n", b" ")
    if not line.strip():
        return
    reply = exchange(sock, reader, line)
    assert reply["status"] in ("ok", "error")
    if reply["status"] == "error":
        assert reply["error"] != "internal_error" and CODES.fullmatch(reply["error"]), reply
