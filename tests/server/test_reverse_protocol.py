"""Reverse execution over a real socket on a C program that prints (its SVCs are inputs
the history replays): `continue.back` and `step.back` land on states equal to the ones
the forward run had, running on through the past replays to the same stops, and the
errors people meet."""
from __future__ import annotations

import time

import pytest

from hsx.client import Client, ProtocolError
from hsx.image.hxe import write_hxe
from hsx.image.sym import write_sym
from hsx.server import BackgroundServer, ServerConfig
from hsx.toolchain.cc.driver import Options, build_c

SOURCE = """\
#include <stdio.h>
int total = 0;
__attribute__((noinline)) int accumulate(int i) {
    total += i * i;
    return total;
}
int main(void) {
    for (int i = 0; i < 40; i++) {
        int t = accumulate(i);
        if (i % 4 == 0)
            printf("%d\\n", t);
    }
    return 0;
}
"""


@pytest.fixture
def client(tmp_path):
    with BackgroundServer(ServerConfig(port=0, root=tmp_path / "fs")) as server:
        c = Client(server.host, server.port, timeout=30)
        yield c
        c.close()


def wait_break(client: Client, timeout: float = 10.0) -> dict:
    deadline = time.monotonic() + timeout
    while (left := deadline - time.monotonic()) > 0:
        event = client.next_event(timeout=left)
        if event is not None and event["type"] == "debug_break":
            return event["data"]
    raise AssertionError("no debug_break")


def snapshot(client: Client, pid: int) -> tuple:
    regs = client.request("regs", pid=pid)["registers"]
    memory = client.request("peek", pid=pid, addr=0x4000, length=0x200)
    return regs["pc"], regs["steps"], tuple(regs["regs"]), client.evaluate(pid, "total")["value"], \
        memory.get("data") or memory.get("data_b64") or memory.get("hex")


def debugged(client: Client, tmp_path) -> int:
    source = tmp_path / "acc.c"
    source.write_text(SOURCE)
    result, _ = build_c([str(source)], Options(opt=0, debug=True), "acc")
    path = tmp_path / "acc.hxe"
    path.write_bytes(write_hxe(result.image))
    path.with_suffix(".sym").write_bytes(write_sym(result.symbols))
    pid = client.request("load", path=str(path), paused=True)["pid"]
    opened = client.open_session("test", pid_lock=pid)
    assert "reverse" in opened["features"]
    client.subscribe(["debug_break"], pids=[pid])
    return pid


def test_going_back_lands_on_the_forward_states(client, tmp_path):
    pid = debugged(client, tmp_path)
    status = client.history_on(pid)
    assert status["recording"] and status["position"] == status["end"]
    bp = client.set_breakpoint(pid, "accumulate")["breakpoint_id"]
    hits = []
    for _ in range(6):
        client.request("resume", pid=pid)
        assert wait_break(client)["breakpoint_id"] == bp
        hits.append(snapshot(client, pid))
    assert len({h[1] for h in hits}) == 6                 # six different moments

    client.continue_back(pid)
    event = wait_break(client)
    assert event["reverse"] and event["reason"] == "breakpoint"
    assert snapshot(client, pid) == hits[4]
    client.continue_back(pid)
    wait_break(client)
    assert snapshot(client, pid) == hits[3]

    # one instruction back, then forward again through the past
    client.step_back(pid)
    assert wait_break(client)["reverse"]
    assert snapshot(client, pid)[1] == hits[3][1] - 1
    client.request("resume", pid=pid)
    wait_break(client)
    assert snapshot(client, pid) == hits[3]
    client.request("resume", pid=pid)
    wait_break(client)
    assert snapshot(client, pid) == hits[4]               # replayed, not run again
    status = client.request("history.status", pid=pid)["history"]
    assert status["replaying"] and status["position"] < status["end"]


def test_step_back_by_line_reaches_the_previous_line(client, tmp_path):
    pid = debugged(client, tmp_path)
    client.history_on(pid)
    client.set_breakpoint(pid, "accumulate")
    client.request("resume", pid=pid)
    wait_break(client)
    client.request("resume", pid=pid)
    here = wait_break(client)
    result = client.step_back(pid, "line")
    assert result["line"] != here.get("line") and result["file"].endswith("acc.c")
    assert result["steps"] < snapshot(client, pid)[1] + 1


def test_errors_say_what_to_do(client, tmp_path):
    pid = debugged(client, tmp_path)
    with pytest.raises(ProtocolError) as error:
        client.step_back(pid)
    assert error.value.code == "not_recording" and "history.on" in error.value.message
    client.history_on(pid)
    with pytest.raises(ProtocolError) as error:
        client.step_back(pid)
    assert error.value.code == "history_start"
    with pytest.raises(ProtocolError) as error:
        client.request("history.on", pid=pid, budget_mb=0)
    assert error.value.code == "bad_argument"
    with pytest.raises(ProtocolError) as error:
        client.request("step.back", pid=pid, unit="page")
    assert error.value.code == "bad_argument"
    assert client.history_off(pid) == {"pid": pid, "recording": False}
