"""`hsx dbg` on `hsx execd --profile minimal`: the panels that variant cannot fill say so
(and which variant can), their keys are greyed out, and what it offers works without
events -- stepping instructions, registers, the task's output and its end."""
from __future__ import annotations

import pytest
from execdkit import execd_child
from textual.widgets import Static
from tuikit import load, make_app, run, until

from hsx.tui.target import Target
from hsx.tui.widgets.registers import RegistersView

HELLO = """
.data
msg: .ascii "hello\\n"
.text
.entry start
start:
    LDI R3, 6
    LDI R1, 1
    LDI32 R2, msg
    SVC MOD=4, FN=2
    LDI R0, 3
    SVC MOD=1, FN=0
"""


@pytest.fixture
def minimal(tmp_path):
    yield from execd_child(tmp_path / "fs", "--profile", "minimal")


def test_a_minimal_executive_greys_out_what_it_lacks_and_serves_the_rest(minimal, tmp_path):
    program = tmp_path / "hello.mvasm"
    program.write_text(HELLO)
    run(lambda: _minimal(minimal, tmp_path, load(minimal, program)))


async def _minimal(execd, tmp_path, pid: int):
    app = make_app(execd, tmp_path, pid, start=Target.start)
    async with app.run_test(size=(100, 32)) as pilot:
        await until(pilot, lambda: app.task is not None and app.registers is not None
                    and app.query("#breakpoints.unavailable"), what="attached")
        for panel, title in (("source", "Source"), ("breakpoints", "Breakpoints"),
                             ("stack", "Stack"), ("locals", "Locals")):
            note = str(app.query_one(f"#{panel}", Static).render())
            assert note == (f"{title} needs the development or full variant; this executive "
                            "runs minimal."), note
        assert app.check_action("toggle_breakpoint", ()) is None      # greyed out
        assert app.check_action("next_line", ()) is None
        assert app.check_action("step_instruction", ()) is True
        assert "this executive runs the minimal variant" in "".join(app.output.rows)

        await pilot.press("i")                  # LDI R3, 6 (R3 held envp, R1 argc: 1)
        await until(pilot, lambda: app.registers.pc == 4, what="one instruction stepped")
        assert app.registers.regs[3] == 6 and "R3" in app.registers.changed
        assert "1 instruction" in app.query_one(RegistersView).render().plain
        await pilot.press("c")
        await until(pilot, lambda: app.task.state == "returned", what="the end")
        assert app.task.exit_status == 3
        await until(pilot, lambda: "hello" in "".join(app.output.rows), what="its output")
