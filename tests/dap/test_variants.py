"""`hsx dap` against `hsx execd --profile minimal`: that variant has no debugger and no
events, so the adapter says so, naming the variants that have them, instead of a
session that could never stop or step the task."""
from __future__ import annotations

import time

import pytest
from execdkit import execd_child

from hsx.client import Client


@pytest.fixture
def minimal(tmp_path):
    yield from execd_child(tmp_path / "fs", "--profile", "minimal")


def refusal_is_clear(message: str, port: int) -> None:
    assert f"the executive at 127.0.0.1:{port} runs the minimal variant, which has no " \
           "debugger" in message
    assert "development or full variant (hsx execd --profile development)" in message


def test_attaching_to_a_minimal_executive_says_what_it_lacks(dap, minimal, built):
    with Client(*minimal) as client:
        pid = client.request("load", path=str(built / "count.mvasm"), paused=True)["pid"]
        dap.initialize()
        refusal_is_clear(dap.fails("attach", pid=pid, host=minimal[0], port=minimal[1]),
                         minimal[1])
        deadline = time.monotonic() + 10          # the adapter let go of its session
        while client.request("session.list")["sessions"] and time.monotonic() < deadline:
            time.sleep(0.02)
        assert client.request("session.list")["sessions"] == []


def test_launching_on_a_minimal_executive_says_what_it_lacks_and_leaves_nothing(dap, minimal,
                                                                              built):
    dap.initialize()
    refusal_is_clear(dap.fails("launch", program=str(built / "count.mvasm"),
                               host=minimal[0], port=minimal[1]), minimal[1])
    with Client(*minimal) as client:
        assert [t["state"] for t in client.request("ps")["tasks"]["tasks"]] == ["killed"]
