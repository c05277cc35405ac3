"""The status line describes the stop the task is at now: after a pause (which has no
stop event of its own) and after a jump, not the reason of an earlier stop."""
from __future__ import annotations

from tuikit import load, make_app, run, stopped_at, until

from hsx.tui.target import Target
from hsx.tui.widgets.source import SourceView
from hsx.tui.widgets.status import StatusBar


def test_the_status_line_describes_the_current_stop(execd, spin, tmp_path):
    run(lambda: _status_of_the_current_stop(execd, spin, tmp_path))


async def _status_of_the_current_stop(execd, spin, tmp_path):
    app = make_app(execd, tmp_path, load(execd, spin), start=Target.start)
    async with app.run_test(size=(100, 32)) as pilot:
        status = app.query_one(StatusBar)
        await until(pilot, stopped_at(app, 16, "main"), what="start at main's first line")
        assert app.task.stop_reason == "arrived at main (spin.c:16)"
        await pilot.press("n")
        await until(pilot, stopped_at(app, 18, "main"), what="the step")
        assert app.task.stop_reason == "step at main (spin.c:18)"

        await pilot.press("c")                                   # it never stops by itself
        await until(pilot, lambda: app.running, what="running")
        await pilot.press("p")
        await until(pilot, stopped_at(app), what="the pause")
        top = app.frames[0]
        assert app.task.stop_reason == f"paused at {top.function} (spin.c:{top.line})"
        assert app.task.stop_reason in status.render().plain

        source = app.query_one(SourceView)                       # a jump is no stop either
        source.focus()
        source.move_cursor(source.row_of(12))
        await pilot.press("t")
        await until(pilot, stopped_at(app, 12, "tick"), what="run to line 12")
        assert app.task.stop_reason == "arrived at tick (spin.c:12)"
        source.move_cursor(source.row_of(11))
        await pilot.press("J")
        await until(pilot, stopped_at(app, 11, "tick"), what="the jump back to line 11")
        assert app.task.stop_reason == "paused at tick (spin.c:11)"
