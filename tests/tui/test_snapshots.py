"""Snapshots of the main layouts (pytest-textual-snapshot): `compact` at 80x24 and
`wide` at 160x50, stopped at a breakpoint in a C program with a watch.  After a
deliberate change of the look: `pytest tests/tui --snapshot-update`, and check the SVGs."""
from __future__ import annotations

from tuikit import load, make_app, stopped_at, until

from hsx.tui.target import Target
from hsx.tui.widgets.status import StatusBar


def scenario(execd, walk, tmp_path, size):
    app = make_app(execd, tmp_path, load(execd, walk), start=Target.start)

    async def run_before(pilot) -> None:
        await pilot.resize_terminal(*size)
        await until(pilot, stopped_at(app, 29, "main"))
        app.break_at_text("sum_squares")
        await until(pilot, lambda: any(bp.kind == "breakpoint" for bp in app.breakpoints))
        await pilot.press("c")
        await until(pilot, stopped_at(app, 19, "sum_squares"))
        await pilot.press("n", "n")
        await until(pilot, stopped_at(app, 21, "sum_squares"))
        await pilot.press("w", *"last", "enter")
        await until(pilot, lambda: app.watch_scope.items and len(app.locals_scope.items) == 3)
        app.query_one(StatusBar).address = "127.0.0.1:9998"      # the port differs per run
        await pilot.pause(0.3)
    return app, run_before


def test_compact_layout_at_80x24(execd, walk, tmp_path, snap_compare):
    app, run_before = scenario(execd, walk, tmp_path, (80, 24))
    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)


def test_wide_layout_at_160x50(execd, walk, tmp_path, snap_compare):
    app, run_before = scenario(execd, walk, tmp_path, (160, 50))
    assert snap_compare(app, terminal_size=(160, 50), run_before=run_before)
