"""Reverse execution from the debugger: record (R), run to a breakpoint, step back ([)
and continue back ({) -- the source line and registers move back -- then forward
again through the recorded past."""
from __future__ import annotations

from tuikit import at_main, run, stopped_at, until

from hsx.tui.widgets.status import StatusBar


def test_record_step_back_continue_back(execd, walk, tmp_path):
    run(lambda: _record_step_back_continue_back(execd, walk, tmp_path))


async def _record_step_back_continue_back(execd, walk, tmp_path):
    async with at_main(execd, walk, tmp_path) as (app, pilot):
        status = app.query_one(StatusBar)
        assert "REC" not in status.render().plain
        await pilot.press("R")
        await until(pilot, lambda: app.history is not None and app.history.recording,
                    what="recording")
        assert "REC" in status.render().plain

        app.break_at_text("square")
        await until(pilot, lambda: any(bp.kind == "breakpoint" for bp in app.breakpoints))
        await pilot.press("c")
        await until(pilot, stopped_at(app, 14, "square"), what="the breakpoint")
        at_break = app.registers
        await until(pilot, lambda: locals_of(app).get("x") == "1", what="x == 1")

        await pilot.press("[")                                     # one line back
        await until(pilot, lambda: stopped_at(app)() and app.location.line != 14,
                    what="a line back")
        assert app.history.in_past and "in the past" in status.render().plain
        assert app.task.stop_reason.startswith("backwards")
        assert app.registers.pc != at_break.pc and "PC" in app.registers.changed
        assert app.registers.steps < at_break.steps

        await pilot.press("{")                                     # back to where recording began
        await until(pilot, stopped_at(app, 29, "main"), what="the start of the history")
        assert "recorded history" in app.task.stop_reason

        await pilot.press("c")                                     # forward through the past
        await until(pilot, stopped_at(app, 14, "square"), what="the breakpoint, replayed")
        assert app.registers.regs == at_break.regs
        await until(pilot, lambda: locals_of(app).get("x") == "1", what="x == 1 again")


def locals_of(app) -> dict[str, str]:
    return {v.name: v.value for v in app.locals_scope.items}


def test_one_instruction_back_is_said_in_the_singular(execd, walk, tmp_path):
    run(lambda: _one_instruction_back(execd, walk, tmp_path))


async def _one_instruction_back(execd, walk, tmp_path):
    async with at_main(execd, walk, tmp_path) as (app, pilot):
        status = app.query_one(StatusBar)
        await pilot.press("R")
        await until(pilot, lambda: app.history is not None and app.history.recording,
                    what="recording")
        steps = app.registers.steps
        await pilot.press("i")
        await until(pilot, lambda: stopped_at(app)() and app.registers.steps == steps + 1,
                    what="one instruction on")
        await pilot.press("colon", *"back", "enter", "escape")     # one instruction back
        await until(pilot, lambda: app.history.in_past and stopped_at(app)(),
                    what="one instruction back")
        assert "in the past: 1 instruction back" in status.render().plain
