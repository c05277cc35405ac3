"""The terminal debugger on a board (`hsx dbg --connect socket://…`): the C executive's
host build, and a board whose executive is hsx execd behind the framed link (which can
be reset at will); every symbolic answer — the source line, frames, variables, line
steps — comes from the client's gateway."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest
from tuikit import run, stopped_at, until

from hsx.client.launch import launch
from hsx.server import BackgroundServer, ServerConfig
from hsx.tui import DebuggerApp
from hsx.tui.layout import LayoutStore
from hsx.tui.target import Target
from hsx.tui.widgets.source import SourceView

sys.path.insert(0, str(Path(__file__).parents[1] / "link"))
from simdevice import bridged_device  # noqa: E402
from hostboard import board_available, host_board  # noqa: E402


@pytest.fixture(params=["host", "bridged"])
def board(request, tmp_path, monkeypatch):
    """(url, reset): the host build (reset None), or hsx execd behind a fake board."""
    monkeypatch.setenv("HSX_IMAGE_STORE", str(tmp_path / "images"))
    if request.param == "host":
        if not board_available():
            pytest.skip("no host build of the C executive in this checkout")
        url, stop = host_board(tmp_path / "board")
        yield url, None
        stop()
        return
    with BackgroundServer(ServerConfig(port=0, root=tmp_path / "fs")) as server:
        device = bridged_device(server.host, server.port)
        yield device.url, device.reset
        device.close()
        device.bridge.close()


def test_break_step_frames_and_a_reset_on_a_board(board, walk, tmp_path):
    run(lambda: _break_step_and_frames(board, walk, tmp_path))


async def _break_step_and_frames(board, walk, tmp_path):
    url, reset = board
    with launch(walk, url, 0) as program:
        app = DebuggerApp(Target(url, 0), pid=program.pid, start=Target.start,
                          layouts=LayoutStore(tmp_path / "layout.json"))
        async with app.run_test(size=(100, 32)) as pilot:
            await until(pilot, stopped_at(app, 29, "main"), what="start at main's first line")
            assert app.target.address == url
            # the gateway's features count as the board's; reverse execution is hsx
            # execd's alone (no framed link carries it), and says so (it read "needs the
            # development or full variant", the variant the board runs)
            assert app.target.lacks("symbols") is None
            assert app.target.lacking("reverse", "Stepping back") == (
                "Stepping back is not offered by this executive (development variant)")
            assert app.check_action("step_back", ()) is None             # greyed out
            source = app.query_one(SourceView)
            source.focus()
            source.move_cursor(source.row_of(21))
            await pilot.press("b")
            await until(pilot, lambda: [bp.line for bp in app.breakpoints
                                        if bp.kind == "breakpoint"] == [21])
            await pilot.press("c")
            await until(pilot, stopped_at(app, 21, "sum_squares"), what="the breakpoint")
            assert [f.function for f in app.frames] == ["sum_squares", "main", "_start"]
            await pilot.press("n")                               # a line step, over a call
            await until(pilot, stopped_at(app, 22, "sum_squares"), what="the next line")
            source.move_cursor(source.row_of(21))
            await pilot.press("b")                               # the breakpoint goes
            await until(pilot, lambda: [bp for bp in app.breakpoints
                                        if bp.kind == "breakpoint"] == [])
            await pilot.press("f")                               # out to main
            await until(pilot, stopped_at(app, function="main"), what="back in main")
            assert [f.function for f in app.frames] == ["main", "_start"]
            if reset is not None:
                reset()
                await until(pilot, lambda: any("the board was reset (boot 2)" in line
                                               for line in app.output), what="the reset noted")
