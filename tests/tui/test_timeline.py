"""The Timeline panel: pong waits for ping's messages and answers them; ping makes three
round trips, writes a line and stops at a BRK.  Snapshots at 80x24 and 160x50 (the
instruction clock makes the picture the same on every run: there are no timers), Pilot
tests of zoom, the cursor and Enter, and of ctrl+e and `:timeline export`.  After a
deliberate change of the look: `pytest tests/tui/test_timeline.py --snapshot-update`,
and look at the SVGs."""
from __future__ import annotations

import subprocess
import sys
import time

import pytest
from timelinekit import decode_perfetto
from tuikit import PROGRAMS, daemon, make_app, run, stopped_at, until

from hsx.client import Client
from hsx.tui.widgets.status import StatusBar
from hsx.tui.widgets.timeline import SPANS, TimelineView


@pytest.fixture
def own_execd(tmp_path):
    """An executive of its own: pong is pid 1, ping pid 2, the clock starts at 0."""
    yield from daemon(tmp_path / "execd")


@pytest.fixture(scope="module")
def programs(tmp_path_factory):
    out = tmp_path_factory.mktemp("pingpong")
    for name in ("ping", "pong"):
        source = out / f"{name}.mvasm"
        source.write_text((PROGRAMS / f"{name}.mvasm").read_text())
        subprocess.run([sys.executable, "-m", "hsx", "asm", str(source), "-o",
                        str(out / f"{name}.hxe")], check=True, capture_output=True, timeout=60)
    return out


def scenario(execd, programs, tmp_path):
    """Recording from the start; pong running (it waits at once), ping loaded paused for
    the debugger, which continues it to the BRK with the Timeline panel in front."""
    with Client(*execd) as client:
        client.request("timeline.start")
        client.request("load", path=str(programs / "pong.hxe"))
        pid = client.request("load", path=str(programs / "ping.hxe"), paused=True)["pid"]
    app = make_app(execd, tmp_path, pid)

    async def run_before(pilot) -> None:
        await until(pilot, stopped_at(app), what="ping attached")
        app.focus_panel("timeline")
        await pilot.press("c")
        await until(pilot, lambda: stopped_at(app)() and app.task.stop_reason
                    and "BRK" in app.task.stop_reason.upper(), what="the BRK")
        panel = app.query_one(TimelineView)
        await until(pilot, lambda: panel.view and any(
            i[2] == "break" for i in panel.view["instants"]), what="the timeline of the run")
        app.query_one(StatusBar).address = "127.0.0.1:9998"      # the port differs per run
        await pilot.pause(0.3)
    return app, run_before


def test_timeline_panel_at_80x24(own_execd, programs, tmp_path, snap_compare):
    app, run_before = scenario(own_execd, programs, tmp_path)
    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)


def test_timeline_panel_at_160x50(own_execd, programs, tmp_path, snap_compare):
    app, run_before = scenario(own_execd, programs, tmp_path)
    assert snap_compare(app, terminal_size=(160, 50), run_before=run_before)


@pytest.fixture(scope="module")
def stall(tmp_path_factory):
    """docs/timeline.md's walkthrough: the demo's producer, and its consumer with a typo
    (it waits on app:reading; the producer sends to app:readings)."""
    out = tmp_path_factory.mktemp("stall")
    examples = PROGRAMS.parents[2] / "examples" / "mvasm"
    (out / "consumer.mvasm").write_text(
        (examples / "consumer.mvasm").read_text().replace("app:readings", "app:reading"))
    (out / "producer.mvasm").write_text((examples / "producer.mvasm").read_text())
    return out


def test_a_stalled_consumer_at_160x50(own_execd, stall, tmp_path, snap_compare):
    """The picture of docs/timeline.md (docs/images/timeline-stall.svg): the consumer
    waits on app:reading from its 11th instruction on while the producer sends its five
    readings to app:readings; the debugger pauses the consumer and explains the end."""
    with Client(*own_execd) as client:
        def state(pid):
            return next(t["state"] for t in client.request("ps")["tasks"]["tasks"]
                        if t["pid"] == pid)

        def wait_for(pid, wanted):
            deadline = time.monotonic() + 30
            while state(pid) != wanted:
                assert time.monotonic() < deadline, f"pid {pid} never {wanted}"
                time.sleep(0.02)
        client.request("timeline.start")
        consumer = client.request("load", path=str(stall / "consumer.mvasm"))["pid"]
        wait_for(consumer, "waiting_mbx")
        producer = client.request("load", path=str(stall / "producer.mvasm"))["pid"]
        wait_for(producer, "returned")
    app = make_app(own_execd, tmp_path, consumer)

    async def run_before(pilot) -> None:
        await until(pilot, lambda: app.task is not None, what="attached")
        app.focus_panel("timeline")
        await pilot.press("f6")
        await until(pilot, stopped_at(app), what="the consumer paused")
        panel = app.query_one(TimelineView)
        await until(pilot, lambda: panel.view and any(
            s[3] == "paused" for s in panel.view["slices"]), what="the pause read")
        await pilot.press("enter")
        await until(pilot, lambda: "waiting_mbx: app:reading" in panel.detail,
                    what="what happened at the end")
        app.query_one(StatusBar).address = "127.0.0.1:9998"      # the port differs per run
        await pilot.pause(0.3)
    assert snap_compare(app, terminal_size=(160, 50), run_before=run_before)


def test_zoom_reads_a_shorter_or_longer_stretch(own_execd, programs, tmp_path):
    app, run_before = scenario(own_execd, programs, tmp_path)

    async def scenario_() -> None:
        async with app.run_test(size=(120, 30)) as pilot:
            await run_before(pilot)
            panel = app.query_one(TimelineView)
            end = panel.view["end"]
            assert panel.view["start"] == 0 and end > 100       # the whole run fits
            for _ in range(SPANS.index(20_000)):                   # in to 100 instructions
                await pilot.press("plus")
            await until(pilot, lambda: panel.view["start"] == end - SPANS[0],
                        what="zoomed in to the last 100 instructions")
            text = str(panel.render())
            assert f"instructions {end - 100:,}..{end:,}" in text
            await pilot.press("minus")
            await until(pilot, lambda: panel.view["start"] == max(end - SPANS[1], 0),
                        what="zoomed out")
    run(scenario_)


def test_enter_says_what_happened_under_the_cursor(own_execd, programs, tmp_path):
    app, run_before = scenario(own_execd, programs, tmp_path)

    async def scenario_() -> None:
        async with app.run_test(size=(120, 30)) as pilot:
            await run_before(pilot)
            panel = app.query_one(TimelineView)
            await pilot.press("enter")                  # the cursor starts at the stop
            await until(pilot, lambda: panel.detail, what="the details")
            assert "ping 2: running, paused: brk" in panel.detail
            assert "pong 1: waiting_mbx: app:ping" in panel.detail
            assert "ping 2 brk at ping.mvasm:45" in panel.detail
            await pilot.press("up")                     # the selected task moves to pong...
            assert panel._selected_pid() == 1
            for _ in range(panel._columns()):           # ... and the cursor to the start,
                await pilot.press("left")               # where pong opens its mailboxes
            await pilot.press("enter")
            await until(pilot, lambda: panel.detail.startswith("at 0"), what="the start")
            assert "pong 1: running" in panel.detail and "ping" not in panel.detail
    run(scenario_)


def test_ctrl_e_records_and_the_command_line_exports(own_execd, programs, tmp_path):
    """Recording started and stopped from the debugger itself, then written with
    `:timeline export FILE`: ping's three messages to pong are in it."""
    with Client(*own_execd) as client:
        client.request("load", path=str(programs / "pong.hxe"))
        pid = client.request("load", path=str(programs / "ping.hxe"), paused=True)["pid"]
    app = make_app(own_execd, tmp_path, pid)
    path = tmp_path / "run.pftrace"

    def recording() -> bool:
        with Client(*own_execd) as client:
            return client.request("timeline.status")["timeline"]["recording"]

    async def scenario_() -> None:
        async with app.run_test(size=(120, 30)) as pilot:
            await until(pilot, stopped_at(app), what="ping attached")
            assert not recording()
            await pilot.press("ctrl+e")
            await until(pilot, recording, what="recording on")
            await pilot.press("c")
            await until(pilot, lambda: stopped_at(app)() and app.task.stop_reason
                        and "BRK" in app.task.stop_reason.upper(), what="the BRK")
            await pilot.press("ctrl+e")
            await until(pilot, lambda: not recording(), what="recording off")
            await pilot.press("colon", *f"timeline export {path}", "enter")
            await until(pilot, path.exists, what="the file written")
    run(scenario_)
    trace = decode_perfetto(path.read_bytes())
    assert [(s, r) for s, _, r, _ in trace.flows() if s.startswith("ping")] == \
        [("ping (pid 2)", "pong (pid 1)")] * 3


def test_attached_to_a_running_task_the_panel_reads_the_recording(own_execd, programs,
                                                                   tmp_path):
    """No stop needed: attaching is enough for the panel to show what is recorded."""
    with Client(*own_execd) as client:
        client.request("timeline.start")
        pid = client.request("load", path=str(programs / "pong.hxe"))["pid"]    # waits
    app = make_app(own_execd, tmp_path, pid)

    async def scenario_() -> None:
        async with app.run_test(size=(120, 30)) as pilot:
            await until(pilot, lambda: app.task is not None and app.running,
                        what="attached to pong, running")
            app.focus_panel("timeline")
            panel = app.query_one(TimelineView)
            await until(pilot, lambda: panel.view and panel.view["tasks"],
                        what="the recording read")
            assert str(panel.render()).startswith("recording · instructions 0..")
            assert panel.view["tasks"] == [{"pid": pid, "name": "pong"}]
    run(scenario_)
