"""The gateway's answers equal the executive's own: the same program loaded twice in one
`hsx execd`, one task driven directly, the other through the gateway (which answers the
symbolic commands on the host from address-level ones): `Client.connect("tcp://…",
gateway=True)`, and a board whose executive is that hsx execd behind the framed link
(`socket://`).  At the same stops, every reply and every stop event must match (but
for the PIDs, and ids the executive numbers)."""
from __future__ import annotations

import json
import time
import subprocess
import sys
from pathlib import Path

import pytest

from hsx.client import Client, ProtocolError
from hsx.server import BackgroundServer, ServerConfig

sys.path.insert(0, str(Path(__file__).parents[1] / "link"))
from simdevice import bridged_device  # noqa: E402

PROG = Path(__file__).parents[1] / "dap" / "programs" / "prog.c"
NUMBERED = ("id", "breakpoint_id", "watch_id")


@pytest.fixture(scope="module")
def prog(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("prog")
    (out / "prog.c").write_text(PROG.read_text())
    subprocess.run([sys.executable, "-m", "hsx", "cc", "-g", "-O0", str(out / "prog.c"), "-o",
                    str(out / "prog.hxe")], check=True, capture_output=True, timeout=600)
    return out / "prog.hxe"


class Pair:
    """The same commands to the direct task and the gateway's, compared."""

    def __init__(self, server, path: Path, url: str) -> None:
        self.direct = Client(server.host, server.port, timeout=20)
        self.gateway = Client.connect(url, gateway=True, timeout=20)
        self.pids = (self.direct.request("load", path=str(path), paused=True)["pid"],
                     self.gateway.request("load", path=str(path), paused=True)["pid"])
        self.direct.subscribe(["debug_break"], pids=[self.pids[0]])
        self.gateway.subscribe(["debug_break"], pids=[self.pids[1]])

    def close(self) -> None:
        self.direct.close()
        self.gateway.close()

    def both(self, cmd: str, **fields) -> tuple:
        return tuple(_normal(client.request(cmd, pid=pid, **fields), pid)
                     for client, pid in zip((self.direct, self.gateway), self.pids))

    def same(self, cmd: str, **fields):
        direct, gateway = self.both(cmd, **fields)
        assert gateway == direct, f"{cmd} {fields}"
        return direct

    def stops(self) -> tuple:
        return tuple(_normal(client.next_event(10), pid)
                     for client, pid in zip((self.direct, self.gateway), self.pids))

    def same_stop(self, cmd: str, **fields) -> dict:
        self.both(cmd, **fields)
        direct, gateway = self.stops()
        assert gateway == direct, f"the stop after {cmd} {fields}"
        return direct


def _normal(value, pid):
    """The reply without what differs between two tasks: the pid, numbered ids, the
    request id and the clock (the gateway has none)."""
    text = json.dumps(value, sort_keys=True)
    value = json.loads(text)

    def walk(item):
        if isinstance(item, dict):
            return {k: ("N" if k in NUMBERED or (k == "breakpoints" and v and
                                                 isinstance(v[0], int))
                        else "P" if k == "pid" and v == pid else walk(v))
                    for k, v in item.items() if k not in ("clock", "ts", "seq")}
        if isinstance(item, list):
            return [walk(v) for v in item]
        return item
    return walk(value)


@pytest.fixture(params=["tcp", "board"])
def pair(request, tmp_path, prog, monkeypatch):
    monkeypatch.setenv("HSX_IMAGE_STORE", str(tmp_path / "images"))
    with BackgroundServer(ServerConfig(port=0, root=tmp_path / "fs")) as server:
        board = None
        if request.param == "board":
            board = bridged_device(server.host, server.port)
            url = board.url
        else:
            url = f"tcp://{server.host}:{server.port}"
        both = Pair(server, prog, url)
        yield both
        both.close()
        if board is not None:
            board.close()
            board.bridge.close()


def test_symbols_source_memory_and_disassembly_match(pair):
    pair.same("symbols.info")
    pair.same("symbols.list")
    pair.same("symbols.list", type="globals")
    pair.same("symbols.lookup", name="accumulate")
    pair.same("symbols.lookup", addr=0x40)
    pair.same("symbols.lookup", file="prog.c", line=22)
    pair.same("source.read", file="prog.c")
    pair.same("memory.regions")
    pair.same("disasm.read", symbol="main", count=12)
    pair.same("disasm.read", count=8, mode="from")
    pair.same("stack.info")


def test_stops_frames_variables_and_expressions_match(pair):
    pair.same("bp.set", file="prog.c", line=22)
    assert pair.same_stop("resume")["data"]["line"] == 22
    pair.same("bp.list")
    pair.same("stack.info")
    for frame in (0, 1, 2):
        pair.same("frame.variables", frame=frame)
    pair.same("evaluate", expr="table[i] + total * 2")
    pair.same("evaluate", expr="origin")
    pair.same("evaluate", expr="&origin")
    ref = pair.gateway.request("evaluate", pid=pair.pids[1], expr="origin")["result"]["ref"]
    direct = pair.direct.request("evaluate", pid=pair.pids[0], expr="origin")["result"]["ref"]
    assert _normal(pair.gateway.request("variables.expand", ref=ref), pair.pids[1]) == \
        _normal(pair.direct.request("variables.expand", ref=direct), pair.pids[0])
    pair.same("disasm.read")
    pair.same("set", lvalue="counter", value="counter + 41")
    pair.same("evaluate", expr="counter")
    pair.same("watch.add", expr="origin.right")
    pair.same("watch.list")


def test_line_steps_over_into_and_out_stop_where_the_executive_does(pair):
    pair.same("run.to", symbol="accumulate")
    pair.stops()
    for mode in ("over", "over", "over", "into", "over", "out", "over"):
        stop = pair.same_stop("step.line", mode=mode)
        assert stop["data"]["reason"] == "step"
    pair.same("stack.info")
    pair.same_stop("step.over")
    pair.same_stop("step.out")
    pair.same("stack.info")


def test_a_conditional_breakpoint_stops_only_when_it_holds(pair):
    pair.same("bp.set", file="prog.c", line=15, condition="doubled == 60")
    stop = pair.same_stop("resume")
    assert stop["data"]["reason"] == "breakpoint" and "condition_error" not in stop["data"]
    assert pair.same("evaluate", expr="x")["result"]["value"] != "10"     # not the first call
    pair.same("bp.list")


def test_errors_match_for_symbols_and_lines_that_are_not_there(pair):
    for cmd, fields in (("bp.set", {"symbol": "nowhere"}), ("bp.set", {"file": "prog.c",
                                                                       "line": 999}),
                        ("symbols.lookup", {"name": "nowhere"}),
                        ("evaluate", {"expr": "no_such_variable"}),
                        ("source.read", {"file": "other.c"})):
        codes = []
        for client, pid in zip((pair.direct, pair.gateway), pair.pids):
            with pytest.raises(ProtocolError) as error:
                client.request(cmd, pid=pid, **fields)
            codes.append(error.value.code)
        assert codes[0] == codes[1], (cmd, fields)


def test_a_line_step_ends_after_the_front_end_unsubscribed(pair):
    """The gateway needs the task's stops for a step: with the front end's subscription
    gone, it subscribes itself (and hands the front end nothing it did not ask for)."""
    pair.same("run.to", symbol="accumulate")
    pair.stops()
    gateway, pid = pair.gateway, pair.pids[1]
    gateway.request("events.unsubscribe")
    start = gateway.request("regs", pid=pid)["registers"]["pc"]
    gateway.request("step.line", pid=pid)

    def stopped_elsewhere():
        registers = gateway.request("regs", pid=pid)["registers"]
        return registers["state"] == "paused" and registers["pc"] != start
    deadline = time.monotonic() + 20
    while not stopped_elsewhere():
        assert time.monotonic() < deadline, "the step never ended"
        gateway.next_event(0.05)                   # the gateway works as events come
    assert gateway.next_event(0.2) is None


def test_restart_loads_the_program_again_with_its_breakpoints(pair):
    pair.same("bp.set", file="prog.c", line=22)
    replies = [client.request("restart", pid=pid, paused=True)
               for client, pid in zip((pair.direct, pair.gateway), pair.pids)]
    for client, reply, old in zip((pair.direct, pair.gateway), replies, pair.pids):
        new = reply["reload"]["new_pid"]
        assert reply["reload"]["old_pid"] == old and reply["pid"] == new != old
        assert client.request("ps", pid=old)["tasks"]["tasks"][0]["state"] == "killed"
        lines = [(b["file"].rsplit("/", 1)[-1], b["line"]) for b in
                 client.request("bp.list", pid=new)["breakpoints"] if b["kind"] == "breakpoint"]
        assert lines == [("prog.c", 22)]
