"""The Timeline panel: pong waits for ping's messages and answers them; ping makes three
round trips, writes a line and stops at a BRK.  Snapshots at 80x24 and 160x50 (the
instruction clock makes the picture the same on every run: there are no timers), and
Pilot tests of zoom, the cursor and Enter.  After a deliberate change of the look:
`pytest tests/tui/test_timeline.py --snapshot-update`, and look at the SVGs."""
from __future__ import annotations

import subprocess
import sys

import pytest
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
