"""The terminal debugger on the mps2-an385 board under QEMU (`hsx dbg --connect
socket://…`): the program is built here, loaded over the board's UART, stopped at main;
a breakpoint, a line step and the variables, with every name and line from the client's
gateway and every register and byte from the emulated Cortex-M3."""
from __future__ import annotations

import sys
from pathlib import Path

from tuikit import run, stopped_at, until

from hsx.client.launch import launch
from hsx.tui import DebuggerApp
from hsx.tui.layout import LayoutStore
from hsx.tui.target import Target
from hsx.tui.widgets.source import SourceView

sys.path.insert(0, str(Path(__file__).parents[1]))
from mps2kit import mps2_board, requires_qemu  # noqa: E402

pytestmark = requires_qemu


def test_breakpoint_step_and_variables_on_the_mps2_board(walk, tmp_path, monkeypatch):
    monkeypatch.setenv("HSX_IMAGE_STORE", str(tmp_path / "images"))
    with mps2_board(tmp_path / "flash.bin") as board:
        run(lambda: _breakpoint_step_and_variables(board, walk, tmp_path))


async def _breakpoint_step_and_variables(board, walk, tmp_path):
    with launch(walk, board.url, 0) as program:
        app = DebuggerApp(Target(board.url, 0), pid=program.pid, start=Target.start,
                          layouts=LayoutStore(tmp_path / "layout.json"))
        async with app.run_test(size=(100, 32)) as pilot:
            await until(pilot, stopped_at(app, 29, "main"), 60, "start at main's first line")
            source = app.query_one(SourceView)
            source.focus()
            source.move_cursor(source.row_of(21))
            await pilot.press("b")
            await until(pilot, lambda: [bp.line for bp in app.breakpoints
                                        if bp.kind == "breakpoint"] == [21], 60)
            await pilot.press("c")
            await until(pilot, stopped_at(app, 21, "sum_squares"), 60, "the breakpoint")
            assert [f.function for f in app.frames] == ["sum_squares", "main", "_start"]
            await until(pilot, lambda: {v.name: v.value for v in app.locals_scope.items}
                        .get("i") == "1", 60, "i = 1 in the locals")
            await pilot.press("n")                              # a line step, over square()
            await until(pilot, stopped_at(app, 22, "sum_squares"), 60, "the next line")
            await until(pilot, lambda: {v.name: v.value for v in app.locals_scope.items}
                        .get("total") == "1", 60, "total = 1 after square(1)")
            board.reset()
            await until(pilot, lambda: any("the board was reset" in line for line in app.output),
                        60, "the reset noted")
