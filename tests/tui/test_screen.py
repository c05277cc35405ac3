"""The screen as the terminal changes and as layouts switch: what must stay in view."""
from __future__ import annotations

from tuikit import at_main, run, until

from hsx.tui.widgets.source import SourceView


def in_view(view, row: int) -> bool:
    top = int(view.scroll_offset.y)
    return top <= row < top + view.scrollable_content_region.height


def test_the_current_line_stays_in_view_when_the_terminal_shrinks(execd, walk, tmp_path):
    run(lambda: _shrink(execd, walk, tmp_path))


async def _shrink(execd, walk, tmp_path):
    async with at_main(execd, walk, tmp_path, size=(120, 50)) as (app, pilot):
        source = app.query_one(SourceView)
        row = source.row_of(29)
        await until(pilot, lambda: in_view(source, row) and source.cursor == row)
        assert source.scroll_offset.y == 0                      # all of walk.c fits
        await pilot.resize_terminal(80, 24)
        await until(pilot, lambda: source.scrollable_content_region.height < row,
                    what="the smaller source panel")
        await until(pilot, lambda: in_view(source, row), what="line 29 in view")
