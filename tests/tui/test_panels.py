"""The command line, the palette, the breakpoints table, memory, and the layout that is
remembered -- driven with Pilot against a real `hsx execd`."""
from __future__ import annotations

import json

from tuikit import at_main, load, make_app, run, stopped_at, until

from textual.widgets import Input

from hsx.client import Client
from hsx.tui.layout import LayoutStore
from hsx.tui.screens import Confirm, Prompt
from hsx.tui.target import Target
from hsx.tui.widgets.memory import MemoryView
from hsx.tui.widgets.tables import BreakpointsTable
from hsx.tui.widgets.trace import TraceTable, changes
from hsx.tui.widgets.variables import VariablesView


def test_command_line_breakpoints_table_and_memory(execd, walk, tmp_path):
    run(lambda: _command_line_breakpoints_table_and_memory(execd, walk, tmp_path))


async def _command_line_breakpoints_table_and_memory(execd, walk, tmp_path):
    app = make_app(execd, tmp_path, load(execd, walk), start=Target.start)
    async with app.run_test(size=(100, 30)) as pilot:
        await until(pilot, stopped_at(app, 29, "main"))
        await pilot.press("colon", *"break square if x == 2", "enter")
        await until(pilot, lambda: [bp.condition for bp in app.breakpoints
                                    if bp.kind == "breakpoint"] == ["x == 2"])
        assert "(dbg) break square if x == 2" in "\n".join(app.output)
        await pilot.press("escape")

        await pilot.press("c")                                    # stops when x == 2
        await until(pilot, stopped_at(app, 14, "square"), what="the conditional breakpoint")
        assert {v.name: v.value for v in app.locals_scope.items}["x"] == "2"
        await pilot.press("colon", *"p x * 10", "enter")           # the shell's language,
        await until(pilot, lambda: "x * 10 = 20  (int)" in app.output,  # shown as it shows it
                    what="p x * 10")
        await pilot.press(*"bt", "enter")
        await until(pilot, lambda: any(line.startswith("#1  ") and "in sum_squares+" in line
                                       for line in app.output), what="bt")
        assert not any('"status"' in line for line in app.output)  # no protocol JSON
        await pilot.press(*"p x --json", "enter")                   # unless asked for
        await until(pilot, lambda: '  "result": {' in app.output, what="p x --json")
        await pilot.press(*"help until", "enter", "escape")
        await until(pilot, lambda: "usage: until PID ADDR" in "\n".join(app.output),
                    what="help until")

        table = app.query_one(BreakpointsTable)
        app.focus_panel("breakpoints")
        table.move_cursor(row=[bp.kind for bp in app.breakpoints].index("breakpoint"))
        await pilot.press("space")                                # disable it
        await until(pilot, lambda: [bp.enabled for bp in app.breakpoints
                                    if bp.kind == "breakpoint"] == [False])

        memory = app.query_one(MemoryView)
        app.focus_panel("memory")
        memory.follow = "&counter"
        with_address = await app.target.evaluate("&counter")
        expected = int(with_address["value"].split()[0], 0)
        await until(pilot, lambda: memory.address == expected, what="memory at &counter")
        row = memory.render_row(memory.cursor).plain
        assert row.startswith(f"{expected & ~15:08x}")

        memory.move_cursor((expected - memory.base) // 16)
        column = expected % 16
        for answer, value in (("n", "1"), ("y", "9")):           # refused, then confirmed
            await pilot.press("e")
            prompt = await until(pilot, lambda: app.screen.query(Input))
            row_bytes = bytearray.fromhex(prompt.first().value)
            row_bytes[column:column + 4] = (9).to_bytes(4, "little")
            prompt.first().value = row_bytes.hex(" ")
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, Confirm))
            await pilot.press(answer)
            await until(pilot, lambda: not isinstance(app.screen, (Confirm, Prompt)))
            await until(pilot, lambda: app._busy == 0)
            assert (await app.target.evaluate("counter"))["value"] == value


def test_palette_hides_a_panel_and_the_layout_is_remembered(execd, walk, tmp_path):
    run(lambda: _palette_hides_a_panel(execd, walk, tmp_path))


async def _palette_hides_a_panel(execd, walk, tmp_path):
    app = make_app(execd, tmp_path, load(execd, walk))
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, stopped_at(app))
        assert app.current_layout.name == "compact"
        await pilot.press("ctrl+p", *"hide panel: registers", "enter")
        await until(pilot, lambda: not app.query("#registers"), what="registers hidden")
        await pilot.press("f2")                                   # the next layout
        await until(pilot, lambda: app.current_layout.name == "wide")
    saved = json.loads((tmp_path / "layout.json").read_text())
    assert saved["current"] == "wide"
    assert saved["layouts"]["compact"]["hidden"] == ["registers"]
    name, layouts = LayoutStore(tmp_path / "layout.json").load()
    assert name == "wide" and "registers" in layouts["compact"].hidden


def test_switching_tasks_keeps_the_sessions_breakpoints(execd, walk, tmp_path):
    run(lambda: _switching_tasks(execd, walk, tmp_path))


async def _switching_tasks(execd, walk, tmp_path):
    first, second = load(execd, walk), load(execd, walk)
    app = make_app(execd, tmp_path, first)
    async with app.run_test(size=(100, 30)) as pilot:
        await until(pilot, stopped_at(app))
        app.break_at_text("walk.c:21")
        await until(pilot, lambda: user_lines(app) == [21])

        await pilot.press("colon", *f"use {second}", "enter", "escape")
        await until(pilot, lambda: app.pid == second and stopped_at(app)() and app.task.pid == second,
                    what="the second task")
        assert user_lines(app) == []
        with Client(*execd) as observer:
            assert [bp["line"] for bp in observer.request("bp.list", pid=first)["breakpoints"]
                    if bp["kind"] == "breakpoint"] == [21]          # still set in the first
            await until(pilot, lambda: [s["pid_lock"] for s in observer.request(
                "session.list")["sessions"] if s["client"] == "hsx dbg"] == [[second]],
                what="the first task's session closed")       # (closing it is not waited for)

        app.switch_task(first)                                    # and back
        await until(pilot, lambda: app.pid == first and user_lines(app) == [21],
                    what="the first task with its breakpoint")


def user_lines(app) -> list[int]:
    return [bp.line for bp in app.breakpoints if bp.kind == "breakpoint"]


def test_trace_panel_shows_the_last_instructions_with_what_they_changed(execd, walk, tmp_path):
    run(lambda: _trace_panel(execd, walk, tmp_path))


async def _trace_panel(execd, walk, tmp_path):
    async with at_main(execd, walk, tmp_path) as (app, pilot):
        table = app.query_one("#trace", TraceTable)
        assert app.trace_rows == () and "ctrl+t" in str(table.get_row_at(0)[0])
        await pilot.press("ctrl+t")
        await until(pilot, lambda: app.tracing, what="tracing on")
        before = app.registers.steps
        await pilot.press("n")                                  # the whole of sum_squares(3)
        await until(pilot, lambda: stopped_at(app, 30, "main")() and app.trace_rows,
                    what="the traced line")
        rows = app.trace_rows
        assert 0 < len(rows) <= 200 and rows[-1]["seq"] <= app.registers.steps
        steps = [r["seq"] for r in rows]
        assert steps[0] >= before and steps == sorted(steps)
        assert table.row_count == len(rows) and table.cursor_row == len(rows) - 1
        writes = [r for r in rows if "R0" in r.get("regs", {})]
        assert writes and f"R0={writes[-1]['regs']['R0']:#x}" in changes(writes[-1])
        await pilot.press("ctrl+t")
        await until(pilot, lambda: not app.tracing, what="tracing off")


def test_memory_opens_on_the_stack_it_follows(execd, walk, tmp_path):
    run(lambda: _memory_opens_on_the_stack(execd, walk, tmp_path))


async def _memory_opens_on_the_stack(execd, walk, tmp_path):
    """SP sits near the top of the data space: the window read around it must end there
    (it read 1 KiB from 256 bytes below SP, past the end: an error, nothing shown)."""
    async with at_main(execd, walk, tmp_path) as (app, pilot):
        memory = app.query_one(MemoryView)
        app.focus_panel("memory")
        sp = app.registers.regs[15]
        await until(pilot, lambda: memory.render_row(0).plain != "not stopped",
                    what="memory read")
        assert memory.data, memory.render_row(0).plain
        with Client(*execd) as client:
            regions = client.request("memory.regions", pid=app.pid)["memory"]["regions"]
        end = max(region["end"] for region in regions if region["space"] == "data")
        assert memory.base + len(memory.data) == end                # up to the very end
        row = memory.render_row(memory.cursor).plain
        assert row.startswith(f"{sp & ~15:08x}")                    # the cursor on SP's row

        memory.follow = f"{end:#x}"                                 # past the end: said so
        await until(pilot, lambda: not memory.data, what="an address past the end")
        assert memory.render_row(0).plain == (f"{end:#x}: {end:#06x} is outside the data "
                                               f"space (0x0..{end:#x})")


def test_the_breakpoints_table_fits_its_rows(execd, walk, tmp_path):
    run(lambda: _breakpoints_table_fits(execd, walk, tmp_path))


async def _breakpoints_table_fits(execd, walk, tmp_path):
    """The table's empty-table message sat in its first column: the column kept that
    width (about 50) once there were breakpoints, before their ids."""
    async with at_main(execd, walk, tmp_path) as (app, pilot):
        table = app.query_one(BreakpointsTable)
        app.focus_panel("breakpoints")
        app.break_at_text("walk.c:22")
        await until(pilot, lambda: any(bp.kind == "breakpoint" for bp in app.breakpoints))
        await until(pilot, lambda: table.row_count == len(app.breakpoints), what="the rows")
        ids = max(2, *(len(str(bp.id)) for bp in app.breakpoints))    # "id" or the widest
        await until(pilot, lambda: [c.content_width for c in table.ordered_columns[:2]]
                    == [1, ids], what="columns as wide as the rows")   # laid out when idle


def test_enter_in_a_freshly_focused_locals_panel_expands_the_first_row(execd, spin, tmp_path):
    run(lambda: _enter_expands(execd, spin, tmp_path))


async def _enter_expands(execd, spin, tmp_path):
    app = make_app(execd, tmp_path, load(execd, spin), start=Target.start)
    async with app.run_test(size=(100, 32)) as pilot:
        await until(pilot, stopped_at(app, 16, "main"), what="start at main's first line")
        view = app.query_one("#locals", VariablesView)
        await until(pilot, lambda: [n.data.name for n in view.root.children if n.data][:1]
                    == ["it"], what="the struct local listed first")
        app.focus_panel("locals")
        await until(pilot, lambda: view.has_focus)
        await pilot.press("enter")
        first = view.root.children[0]
        await until(pilot, lambda: first.is_expanded and
                    [n.data.name for n in first.children] == ["id", "qty"],
                    what="its fields shown")
