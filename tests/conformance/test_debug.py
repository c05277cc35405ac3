"""The debugger's services, events and observer sessions: on the variants that offer
them (development and full; observers only full), the same answers as the Python
executive; on the others, `unsupported` naming the variant that has them."""
from __future__ import annotations

import pytest
from executives import image, wait_for
from mvasmkit import BREAKER
from programs import CALLS, LOOP

from hsx.client import ProtocolError


def refused(executive, feature: str, call) -> None:
    """`call()` must fail as the variant lacks `feature`: unsupported, naming the variant."""
    with pytest.raises(ProtocolError) as error:
        call()
    assert error.value.code == "unsupported"
    assert error.value.variant_required == executive.needs(feature)
    assert f"the {executive.needs(feature)}" in error.value.message      # (needs, or need)


def next_stop(client, pid: int) -> dict:
    return wait_for(lambda: next((e for e in iter(lambda: client.next_event(0.2), None)
                                  if e["type"] == "debug_break" and e["pid"] == pid), None))


def test_breakpoints_stack_and_run_to(executive):
    client = executive.connect()
    pid = client.request("load", image=image(CALLS, "calls"), paused=True)["pid"]
    if not executive.offers("debug"):
        refused(executive, "debug", lambda: client.request("bp.set", pid=pid, addr=0x2C))
        refused(executive, "debug", lambda: client.request("run.to", pid=pid, addr=0x1C))
        return
    client.subscribe(["debug_break"], pids=[pid])
    bp = client.request("bp.set", pid=pid, addr=0x2C)["breakpoint"]        # LD in bump
    assert (bp["pid"], bp["address"], bp["hits"], bp["enabled"]) == (pid, 0x2C, 0, True)
    client.request("resume", pid=pid)
    stop = next_stop(client, pid)
    assert stop["data"]["reason"] == "breakpoint" and stop["data"]["pc"] == 0x2C
    assert "code" not in stop["data"]                 # a BRK's code, for BRK stops only
    frames = client.request("stack.info", pid=pid)["stack"]["frames"]
    assert [f["pc"] for f in frames] == [0x2C, 0x18, 0x04]       # bump, main, start
    listed = client.request("bp.list", pid=pid)["breakpoints"]
    assert [(b["address"], b["hits"]) for b in listed if b["kind"] == "breakpoint"] == [(0x2C, 1)]
    client.request("bp.clear", breakpoint_id=bp["id"])
    client.request("run.to", pid=pid, addr=0x1C)                # after the second call
    assert next_stop(client, pid)["data"]["pc"] == 0x1C


def test_brk_instructions_are_listed_and_stop_the_task(executive):
    client = executive.connect()
    pid = client.request("load", image=image(BREAKER, "breaker"), paused=True)["pid"]
    if not executive.offers("debug"):
        refused(executive, "debug", lambda: client.request("bp.list", pid=pid))
        return
    listed = client.request("bp.list", pid=pid)["breakpoints"]
    assert [(b["kind"], b["address"], b["code"]) for b in listed] == [("brk", 4, 9)]
    client.subscribe(["debug_break"], pids=[pid])
    client.request("resume", pid=pid)
    stop = next_stop(client, pid)["data"]
    assert (stop["reason"], stop["pc"], stop["code"]) == ("brk", 4, 9)


def test_watches_report_a_change(executive):
    client = executive.connect()
    pid = client.request("load", image=image(LOOP, "loop"), paused=True)["pid"]
    if not executive.offers("debug"):
        refused(executive, "debug", lambda: client.request("watch.add", pid=pid, addr=0x4000))
        return
    client.subscribe(["watch_update"], pids=[pid])
    watch = client.request("watch.add", pid=pid, addr=0x4000, length=4)["watch"]
    assert (watch["addr"], watch["length"], watch["value"]) == (0x4000, 4, "00000000")
    client.request("resume", pid=pid)
    update = wait_for(lambda: next((e for e in iter(lambda: client.next_event(0.2), None)
                                    if e["type"] == "watch_update"), None))
    assert update["data"]["old"] == "00000000" and update["data"]["new"] == "01000000"
    client.request("watch.remove", watch_id=watch["id"])
    assert client.request("watch.list", pid=pid)["watches"] == []


def test_trace_keeps_the_last_instructions(executive):
    client = executive.connect()
    pid = client.request("load", image=image(LOOP, "loop"), paused=True)["pid"]
    if not executive.offers("trace"):
        refused(executive, "trace", lambda: client.request("trace.on", pid=pid))
        return
    client.request("trace.on", pid=pid)
    client.request("step", pid=pid, count=5)
    records = client.request("trace.records", pid=pid)["trace"]["records"]
    assert [r["pc"] for r in records] == [0, 8, 12, 16, 20]      # LDI32, LD, ADDI, ST, JMP


def test_events_report_state_changes(executive):
    client = executive.connect()
    if not executive.offers("events"):
        refused(executive, "events", lambda: client.request("events.subscribe"))
        return
    client.subscribe(["task_state"])
    pid = client.request("load", image=image(LOOP, "loop"))["pid"]
    client.request("pause", pid=pid)
    seen = wait_for(lambda: [e for e in iter(lambda: client.next_event(0.2), None)
                             if e["pid"] == pid and e["data"]["new_state"] == "paused"])
    assert seen[0]["data"]["reason"] == "user_pause"


def test_a_subscription_to_several_categories_gets_each(executive):
    client = executive.connect()
    if not executive.offers("events"):
        pytest.skip("no events on this variant (test_events_report_state_changes checks "
                    "that it says so)")
    reply = client.request("events.subscribe", categories=["stdout", "task_state"])
    assert {c for f in reply["events"]["filters"] for c in f["categories"]} >= {
        "stdout", "task_state"}
    pid = client.request("load", image=image(LOOP, "loop"))["pid"]
    client.request("pause", pid=pid)
    wait_for(lambda: any(e["type"] == "task_state" and e["pid"] == pid
                         for e in iter(lambda: client.next_event(0.2), None)))


def test_an_observer_session_reads_but_changes_nothing(executive):
    client = executive.connect()
    pid = client.request("load", image=image(LOOP, "loop"))["pid"]
    if not executive.offers("observers"):
        refused(executive, "observers", lambda: client.open_session("watcher", observer=True))
        return
    session = client.open_session("watcher", observer=True)
    assert session["observer"] is True
    assert client.request("ps", pid=pid)["tasks"]["tasks"][0]["pid"] == pid
    with pytest.raises(ProtocolError) as error:
        client.request("pause", pid=pid)
    assert error.value.code == "read_only"
