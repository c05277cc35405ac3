"""The debug adapter on a board: launch.json's "connect" (a socket:// URL) instead of
host and port.  The board is the C executive's host build, or hsx execd behind the
framed link; names, lines, frames and variables come from the client's gateway."""
from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from dapkit import DapClient, line_of

from hsx.server import BackgroundServer, ServerConfig

sys.path.insert(0, str(Path(__file__).parents[1] / "link"))
from simdevice import bridged_device  # noqa: E402
from hostboard import board_available, host_board  # noqa: E402


@pytest.fixture(params=["host", "bridged"])
def board(request, tmp_path, monkeypatch):
    monkeypatch.setenv("HSX_IMAGE_STORE", str(tmp_path / "images"))
    if request.param == "host":
        if not board_available():
            pytest.skip("no host build of the C executive in this checkout")
        url, stop = host_board(tmp_path / "board")
        yield url
        stop()
        return
    with BackgroundServer(ServerConfig(port=0, root=tmp_path / "fs")) as server:
        device = bridged_device(server.host, server.port)
        yield device.url
        device.close()
        device.bridge.close()


def test_launch_with_connect_stops_steps_and_shows_variables_on_a_board(board, built):
    source = built / "prog.c"
    dap = DapClient.start()
    try:
        dap.initialize()
        seq = dap.send("launch", program=str(built / "prog.hxe"), connect=board)
        dap.wait_event("initialized")
        line = line_of(source, "call twice")
        result = dap.ok("setBreakpoints", source={"path": str(source)},
                        breakpoints=[{"line": line}])["breakpoints"]
        assert result[0]["verified"] and result[0]["line"] == line
        dap.ok("configurationDone")
        assert dap.response(seq)["success"]
        dap.wait_event("output", lambda body: f"on the executive at {board}" in body["output"])
        stop = dap.stopped("breakpoint")
        pid = stop["threadId"]
        frames = dap.ok("stackTrace", threadId=pid)["stackFrames"]
        assert [f["name"] for f in frames[:2]] == ["accumulate", "main"]
        assert frames[0]["line"] == line and frames[0]["source"]["path"] == str(source)
        assert dap.scope_variables(frames[0]["id"], "Arguments")["n"]["value"] == "4"
        dap.ok("stepIn", threadId=pid)
        dap.stopped("step")
        top = dap.top_frame(pid)
        assert top["name"] == "twice" and top["line"] == line_of(source, "twice body")
        assert dap.ok("evaluate", expression="x * 3", frameId=top["id"],
                      context="watch")["result"] == "30"
    finally:
        dap.close()


def test_attach_by_connect_shows_the_tasks_output_after_the_attach(board, built):
    """The adapter subscribes to a task's output with `stdio` after its attach; through
    the client's gateway that output was dropped (only events.subscribe's types passed)."""
    from hsx.client import Client
    with Client.connect(board) as loader:
        pid = loader.request("load", path=str(built / "ticker.hxe"))["pid"]
    dap = DapClient.start()
    try:
        dap.initialize()
        seq = dap.send("attach", pid=pid, connect=board)
        dap.wait_event("initialized")
        dap.ok("configurationDone")
        assert dap.response(seq)["success"]
        # what the task wrote before the attach comes first, in one piece; then its ticks
        # as it writes them
        first = dap.wait_event("output", lambda body: "tick " in body["output"])["output"]
        before = max(int(n) for n in re.findall(r"tick (\d+)", first))
        dap.wait_output(f"tick {before + 2}\n", timeout=60)
    finally:
        dap.close()


def test_connect_with_a_bad_url_fails_the_launch_with_a_message(built):
    dap = DapClient.start()
    try:
        dap.initialize()
        reply = dap.response(dap.send("launch", program=str(built / "prog.hxe"),
                                      connect="socket://nowhere"))
        assert not reply["success"]
        assert "\"connect\": socket://nowhere: expected socket://HOST:PORT" in reply["message"]
    finally:
        dap.close()
