"""Attaching to one task of several: pause and resume it while another keeps printing;
detaching leaves it running and releases its lock."""
from __future__ import annotations

import re
import time

import pytest

from hsx.client import Client, ProtocolError


@pytest.fixture
def tickers(execd, built):
    """Two running ticker tasks (PIDs); killed afterwards."""
    with Client(*execd) as client:
        pids = [client.request("load", path=str(built / "ticker.hxe"))["pid"] for _ in range(2)]
    yield pids
    with Client(*execd) as client:
        for pid in pids:
            try:
                client.request("kill", pid=pid)
            except ProtocolError:
                pass                        # still locked by a failed test's adapter


def ticks(dap, pid: int) -> int:
    """The last tick number task `pid` printed (as the adapter relayed it)."""
    found = re.findall(rf"\[ticker\S* {pid}\] tick (\d+)\n", dap.output("stdout"))
    return int(found[-1]) if found else -1


def wait_for(predicate, timeout: float = 10.0, what: str = "condition"):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.02)
    raise AssertionError(f"{what} not reached within {timeout} s")


def test_pause_one_task_while_another_prints(dap, execd, tickers, built):
    mine, other = tickers
    dap.initialize()
    seq = dap.send("attach", pid=mine, host=execd[0], port=execd[1])
    dap.wait_event("initialized")
    dap.ok("configurationDone")
    assert dap.response(seq)["success"]
    names = {t["id"]: t["name"] for t in dap.ok("threads")["threads"]}
    assert names[mine].endswith(f"(PID {mine})") and names[other].endswith(f"(PID {other})")
    assert names[mine].startswith("ticker") and names[other].startswith("ticker")
    wait_for(lambda: ticks(dap, mine) >= 0 and ticks(dap, other) >= 0, what="output of both")
    assert re.search(rf"\[ticker\S* {mine}\] tick 0\n", dap.output("stdout")), \
        "what the task printed before the attach comes first"
    mine_ticks = [int(n) for n in re.findall(rf"\[ticker\S* {mine}\] tick (\d+)\n",
                                             dap.output("stdout"))]
    assert mine_ticks == list(range(len(mine_ticks)))      # no gap, no repeat

    dap.ok("pause", threadId=mine)
    stop = dap.stopped("pause")
    assert stop["threadId"] == mine and stop["allThreadsStopped"] is False
    frames = dap.ok("stackTrace", threadId=mine)["stackFrames"]
    assert any(f["name"] == "main" for f in frames)
    paused_at, others_at = ticks(dap, mine), ticks(dap, other)
    wait_for(lambda: ticks(dap, other) >= others_at + 3, what="the other task's ticks")
    assert ticks(dap, mine) == paused_at                 # mine stays still meanwhile

    dap.ok("continue", threadId=mine)
    wait_for(lambda: ticks(dap, mine) > paused_at, what="ticks after continue")

    dap.ok("pause", threadId=other)                  # another (unlocked) task
    assert dap.stopped("pause")["threadId"] == other
    main = next(f for f in dap.ok("stackTrace", threadId=other)["stackFrames"]
                if f["name"] == "main")
    assert main["source"]["path"] == str(built / "ticker.c")
    with Client(*execd) as someone_else:
        someone_else.request("resume", pid=other)
        continued = dap.wait_event("continued")
        assert continued["threadId"] == other and continued["allThreadsContinued"] is False
        third = someone_else.request("load", path=str(built / "ticker.hxe"))["pid"]
        assert dap.wait_event("thread", lambda b: b["threadId"] == third)["reason"] == "started"
        someone_else.request("kill", pid=third)
        assert dap.wait_event("thread", lambda b: b["threadId"] == third)["reason"] == "exited"
        someone_else.request("kill", pid=third)
    dap.ok("pause", threadId=other)
    dap.stopped("pause")
    dap.ok("disconnect")
    with Client(*execd) as client:
        row = client.request("ps", pid=mine)["tasks"]["tasks"][0]
        assert row["state"] != "killed" and row["locked_by"] is None
        assert client.request("ps", pid=other)["tasks"]["tasks"][0]["state"] != "paused", \
            "a task the adapter paused runs on after the detach"


def test_attach_by_app_name_to_a_paused_task_and_detach_resumes_it(dap, execd, tickers):
    newest = max(tickers)
    with Client(*execd) as client:
        client.request("pause", pid=newest)
    dap.initialize()
    seq = dap.send("attach", app="ticker", host=execd[0], port=execd[1])
    dap.wait_event("initialized")
    dap.ok("configurationDone")
    assert dap.response(seq)["success"]
    assert dap.stopped("pause")["threadId"] == newest
    dap.ok("disconnect", terminateDebuggee=False)
    with Client(*execd) as client:
        wait_for(lambda: client.request("ps", pid=newest)["tasks"]["tasks"][0]["state"]
                 not in ("paused", "killed"), what="the task running again")


def test_a_task_locked_by_another_debugger_is_refused(dap, execd, tickers):
    with Client(*execd) as other_debugger:
        other_debugger.open_session("someone", pid_lock=tickers[0])
        dap.initialize()
        message = dap.fails("attach", pid=tickers[0], host=execd[0], port=execd[1])
        assert f"task {tickers[0]} is being debugged by another session" in message


def test_detach_with_terminate_debuggee_kills_the_task(dap, execd, tickers):
    dap.initialize()
    seq = dap.send("attach", pid=tickers[1], host=execd[0], port=execd[1])
    dap.wait_event("initialized")
    dap.ok("configurationDone")
    assert dap.response(seq)["success"]
    dap.ok("disconnect", terminateDebuggee=True)
    with Client(*execd) as client:
        assert client.request("ps", pid=tickers[1])["tasks"]["tasks"][0]["state"] == "killed"
