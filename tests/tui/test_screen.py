"""The screen as the terminal changes and as layouts switch: what must stay in view."""
from __future__ import annotations

from textual.widgets import Footer
from tuikit import at_main, run, stopped_at, until

from hsx.tui.widgets.area import PanelArea
from hsx.tui.widgets.disasm import DisassemblyView
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


def test_the_source_comes_back_when_a_restarted_task_has_a_line_again(execd, walk, tmp_path):
    run(lambda: _source_back_after_restart(execd, walk, tmp_path))


async def _source_back_after_restart(execd, walk, tmp_path):
    async with at_main(execd, walk, tmp_path) as (app, pilot):
        source, disassembly = app.query_one(SourceView), app.query_one(DisassemblyView)
        await pilot.press("c")                      # to the end, in exit: no source line
        await until(pilot, lambda: app.task.state == "returned" and disassembly.display,
                    what="the end, in the disassembly")
        assert not source.display
        first = app.pid
        await pilot.press("ctrl+r")
        await until(pilot, lambda: app.pid != first and stopped_at(app, 29, "main")(),
                    what="the restarted task at main")
        await until(pilot, lambda: source.display, what="the source in front again")
        assert source.has_focus                     # where the disassembly's focus was

        app.focus_panel("disassembly")              # the user's own choice stays
        await pilot.press("n")
        await until(pilot, stopped_at(app, 30, "main"), what="the next line")
        assert disassembly.display and not source.display


def test_the_wide_layout_at_80x24_keeps_the_source_readable_and_the_footer(execd, walk,
                                                                           tmp_path):
    run(lambda: _wide_at_80x24(execd, walk, tmp_path))


async def _wide_at_80x24(execd, walk, tmp_path):
    async with at_main(execd, walk, tmp_path, size=(80, 24)) as (app, pilot):
        assert app.current_layout.name == "compact"
        await until(pilot, lambda: footer_keys(app), what="the compact layout's footer")
        await pilot.press("f2")
        await until(pilot, lambda: app.current_layout.name == "wide" and app.query(SourceView),
                    what="the wide layout")
        await until(pilot, lambda: footer_keys(app), what="the footer's keys")
        assert "Quit" in footer_keys(app)
        assert isinstance(app.focused, SourceView)              # the focus stays where it was
        code = app.query_one("#area-code", PanelArea).region
        top = app.query_one("#top").region
        assert code.width >= 26 and top.height >= 10             # room for code
        await pilot.press("f2")                                  # and back
        await until(pilot, lambda: app.current_layout.name == "compact" and footer_keys(app),
                    what="compact with its footer")


def footer_keys(app) -> list[str]:
    """The descriptions of the keys the footer shows."""
    return [key.description for key in app.query_one(Footer).query("FooterKey")
            if key.description]


def test_the_footer_ends_with_the_palette_key(execd, walk, tmp_path):
    run(lambda: _footer_edge(execd, walk, tmp_path))


async def _footer_edge(execd, walk, tmp_path):
    """The keys that do not fit run under the palette key at the right; its margin let
    their last letter show at the edge (`^p palettep`)."""
    async with at_main(execd, walk, tmp_path, size=(80, 24)) as (app, pilot):
        await until(pilot, lambda: footer_keys(app), what="the footer's keys")
        widget, _ = app.screen.get_widget_at(app.size.width - 1, app.size.height - 1)
        assert widget.has_class("-command-palette"), widget
