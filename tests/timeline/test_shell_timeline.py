"""The console's `timeline` command, over the protocol's timeline.* commands, against a
live executive running the demo in real time."""
from __future__ import annotations

import json
import shlex
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from hsx.server import BackgroundServer, ServerConfig
from hsx.shell.cli import shell_command
from timelinekit import DEMO, decode_perfetto

sys.path.insert(0, str(Path(__file__).parents[1] / "shell"))
from shellkit import build  # noqa: E402


@pytest.fixture
def server(tmp_path):
    with BackgroundServer(ServerConfig(port=0, root=tmp_path / "fs")) as srv:
        yield srv


def shell(server, line: str) -> dict:
    result = CliRunner().invoke(shell_command, ["--port", str(server.port), "--json",
                                                *shlex.split(line)])
    assert result.exit_code == 0, (line, result.stdout, result.stderr)
    docs = [json.loads(text) for text in result.stdout.splitlines() if text.strip()]
    return [doc for doc in docs if "status" in doc][-1]          # the reply, not events


def test_record_the_demo_from_the_console_and_export_it(server, tmp_path):
    assert shell(server, "timeline")["timeline"]["recording"] is False
    assert shell(server, "timeline start")["timeline"]["recording"] is True
    for source in DEMO:
        shell(server, f"load {build(tmp_path, source.read_text(), source.stem)}")
    deadline = time.monotonic() + 120
    while any(t["state"] != "returned" for t in shell(server, "ps")["tasks"]["tasks"]):
        assert time.monotonic() < deadline, shell(server, "ps")
        time.sleep(0.05)
    stopped = shell(server, "timeline stop")["timeline"]
    assert stopped["recording"] is False and stopped["records"] > 20
    written = shell(server, f"timeline export {tmp_path / 'demo.pftrace'}")["timeline"]
    assert written["format"] == "perfetto" and written["bytes"] > 0
    trace = decode_perfetto((tmp_path / "demo.pftrace").read_bytes())
    assert [(s, r) for s, _, r, _ in trace.flows()] == [("producer (pid 1)",
                                                          "consumer (pid 2)")] * 5
    assert [value for _, value in trace.counters["sensor.temp"]] == [20.0, 21.0, 22.0, 23.0]
    view = shell(server, "timeline.view last=100000")["view"]
    assert [t["name"] for t in view["tasks"]] == ["producer", "consumer", "sensor", "hello"]
    assert len(view["flows"]) == 5


def test_export_errors_are_named(server, tmp_path):
    shell(server, "timeline start")
    result = CliRunner().invoke(shell_command, ["--port", str(server.port), "timeline",
                                                "export", str(tmp_path / "t.vcd"),
                                                "values=pressure"])
    assert result.exit_code == 1 and "no value 'pressure'" in result.stdout + result.stderr
    result = CliRunner().invoke(shell_command, ["--port", str(server.port), "timeline",
                                                "export"])
    assert result.exit_code == 2 and "timeline export needs the file" in result.stderr
