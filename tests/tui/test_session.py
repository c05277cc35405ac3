"""The debugger driven with Textual's Pilot against a real `hsx execd`, on a C program
built with -g: attach, breakpoints from the source view, stepping, frames, the end."""
from __future__ import annotations

import asyncio
import base64
import subprocess
import sys
import threading

from tuikit import PROGRAMS, at_main, load, make_app, run, stopped_at, until

from hsx.client import Client
from hsx.client.launch import launch
from hsx.image.hxe import write_hxe
from hsx.toolchain.build import build_source
from hsx.tui.target import Target
from hsx.tui.widgets.disasm import DisassemblyView
from hsx.tui.widgets.registers import RegistersView
from hsx.tui.widgets.source import SourceView
from hsx.tui.widgets.stack import StackView
from hsx.tui.widgets.variables import VariablesView, WatchesView


def test_break_step_frames_and_run_to_exit(execd, walk, tmp_path):
    run(lambda: _break_step_frames_and_run_to_exit(execd, walk, tmp_path))


async def _break_step_frames_and_run_to_exit(execd, walk, tmp_path):
    async with at_main(execd, walk, tmp_path) as (app, pilot):
        source = app.query_one(SourceView)
        assert source.file is not None and source.file.path.name == "walk.c"
        assert app.task.stop_reason == "arrived at main (walk.c:29)"   # not "breakpoint 3"

        source.focus()
        source.move_cursor(source.row_of(21))
        await pilot.press("b")                                   # F9/b: breakpoint at cursor
        await until(pilot, lambda: user_lines(app) == [21])
        assert "●" in source.render_row(source.row_of(21)).plain

        await pilot.press("c")
        await until(pilot, stopped_at(app, 21, "sum_squares"), what="the breakpoint")
        assert app.task.stop_reason.startswith("breakpoint ")
        assert [f.function for f in app.frames] == ["sum_squares", "main", "_start"]
        await until(pilot, lambda: values(app.locals_scope) == {"n": "3", "total": "0", "i": "1"})

        await pilot.press("w")                                   # add a watch
        await pilot.press(*"counter", "enter")
        await until(pilot, lambda: values(app.watch_scope) == {"counter": "0"})

        before = app.registers
        await pilot.press("n")                                   # step over square(i)
        await until(pilot, stopped_at(app, 22, "sum_squares"), what="the next line")
        assert app.registers.changed and "PC" in app.registers.changed
        assert app.registers.pc != before.pc
        assert "▶" in source.render_row(source.row_of(22)).plain
        await until(pilot, lambda: values(app.locals_scope)["total"] == "1")

        watches = app.query_one(WatchesView)
        await pilot.press("n")                                   # counter = counter + 1
        await until(pilot, lambda: values(app.watch_scope) == {"counter": "1"})
        await until(pilot, lambda: watches.changed_keys() == {"watch/counter"})

        locals_view = app.query_one("#locals", VariablesView)    # the Globals branch
        await until(pilot, lambda: [str(n.label) for n in locals_view.root.children][-1:]
                    == ["Globals (2)"], what="the Globals branch")
        branch = locals_view.root.children[-1]
        branch.expand()
        await until(pilot, lambda: {str(n.label).split(" = ")[0] for n in branch.children}
                    == {"counter", "last"}, what="the globals listed")
        assert values(app.locals_scope, "globals")["counter"] == "1"
        assert "globals/counter" in locals_view.changed_keys()

        await pilot.press("c")                                   # i = 2: the breakpoint again
        await until(pilot, lambda: stopped_at(app, 21)() and app.registers.steps > before.steps)
        await pilot.press("s")                                   # step into square
        await until(pilot, stopped_at(app, function="square"), what="square")
        assert [f.function for f in app.frames][:2] == ["square", "sum_squares"]

        stack = app.query_one(StackView)
        stack.highlighted = 1                                    # select the caller's frame
        await until(pilot, lambda: app.frame == 1 and app.location.function == "sum_squares")
        assert app.location.line == 21 and not app.location.current
        assert app.frame_registers.frame == 1
        await until(pilot, lambda: values(app.locals_scope) == {"n": "3", "total": "1", "i": "2"})

        await pilot.press("f")                                   # step out
        await until(pilot, stopped_at(app, function="sum_squares"), what="back in the caller")

        source.focus()
        source.move_cursor(source.row_of(21))
        await pilot.press("b")                                   # the breakpoint goes
        await until(pilot, lambda: user_lines(app) == [])
        await pilot.press("c")
        await until(pilot, lambda: app.task.state == "returned", what="the end")
        assert app.task.exit_status == 0
        lines = list(app.output)
        assert "result 14" in lines
        assert lines[lines.index("result 14") + 1:] == [
            f"[pid {app.pid} {app.task.app_name} exited with status 0]"]
        # the task ended in exit (crt0's, no line information): the source panel says so
        # in one short row, and the disassembly comes forward
        await until(pilot, lambda: app.location is not None and app.location.function == "exit")
        assert source.render_row(0).plain == "no source line for exit: see Disassembly"
        assert app.query_one(DisassemblyView).display and not source.display


def user_lines(app) -> list[int]:
    """Lines of the breakpoints the user set (not the BRKs compiled into crt0)."""
    return [bp.line for bp in app.breakpoints if bp.kind == "breakpoint"]


def test_mvasm_program_without_symbols(execd, tmp_path):
    run(lambda: _mvasm_program_without_symbols(execd, tmp_path))


async def _mvasm_program_without_symbols(execd, tmp_path):
    # assembled here and loaded as bare image bytes: no .sym reaches the executive
    # (a .mvasm loaded by path keeps the symbols its build makes)
    image = build_source((PROGRAMS / "count.mvasm").read_text(), filename="count.mvasm",
                         app_name="count")
    with Client(*execd) as client:
        pid = client.request("load", image=base64.b64encode(write_hxe(image)).decode(),
                             paused=True)["pid"]
    app = make_app(execd, tmp_path, pid, start=Target.start)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, stopped_at(app), what="attached at the entry point")
        assert app.location.pc == 0 and app.location.file is None
        disasm = app.query_one(DisassemblyView)
        await until(pilot, lambda: disasm.display and disasm.instructions, what="disassembly")
        assert "no source line" in app.query_one(SourceView).render_row(0).plain
        assert disasm.has_focus
        row = disasm.row_of(0)
        assert "▶" in disasm.render_row(row).plain and "LDI" in disasm.render_row(row).plain

        await pilot.press("i")                  # LDI R1, 0: R1 held argc (1), R2 and R3
        await until(pilot, lambda: stopped_at(app)() and app.location.pc == 4)  # keep theirs
        assert app.registers.changed == {"PC", "R1"}
        assert app.query_one(RegistersView).render().plain.endswith("\n1 instruction")
        await pilot.press("i")                                   # ADDI R1, R1, 1
        await until(pilot, lambda: stopped_at(app)() and app.location.pc == 8)
        assert app.registers.changed == {"PC", "R1"}

        disasm.move_cursor(disasm.row_of(8))                     # CMPI R1, 3
        await pilot.press("b")
        await until(pilot, lambda: any(bp.address == 8 for bp in app.breakpoints))
        await pilot.press("c")
        await until(pilot, lambda: stopped_at(app)() and app.location.pc == 8
                    and app.registers.regs[1] == 2, what="the breakpoint in the loop")
        await pilot.press("enter")                               # follow: no branch here
        disasm.move_cursor(disasm.row_of(12))                    # JNZ loop
        await pilot.press("enter")
        assert disasm.cursor_location() == 4                     # followed to `loop`
        disasm.move_cursor(disasm.row_of(8))
        await pilot.press("b")                                   # breakpoint off again
        await until(pilot, lambda: not any(bp.address == 8 for bp in app.breakpoints))
        await pilot.press("c")
        await until(pilot, lambda: app.task.state == "returned", what="the end")
        assert app.task.exit_status == 3


def values(scope, part: str = "items") -> dict[str, str]:
    return {v.name: v.value for v in getattr(scope, part)}


def test_jump_to_cursor_runs_a_line_again_and_stays_in_the_function(execd, walk, tmp_path):
    run(lambda: _jump_to_cursor(execd, walk, tmp_path))


async def _jump_to_cursor(execd, walk, tmp_path):
    async with at_main(execd, walk, tmp_path) as (app, pilot):
        source = app.query_one(SourceView)
        source.focus()
        source.move_cursor(source.row_of(22))
        await pilot.press("t")                                   # run to line 22
        await until(pilot, stopped_at(app, 22, "sum_squares"), what="line 22")
        await until(pilot, lambda: values(app.locals_scope)["total"] == "1")

        source.move_cursor(source.row_of(21))
        await pilot.press("J")                                   # back to total += square(i)
        await until(pilot, stopped_at(app, 21, "sum_squares"), what="the jump")
        await pilot.press("n")
        await until(pilot, stopped_at(app, 22, "sum_squares"), what="line 22 again")
        await until(pilot, lambda: values(app.locals_scope)["total"] == "2")  # square(1) twice

        source.move_cursor(source.row_of(30))                    # main's line: refused
        await pilot.press("J")
        await until(pilot, lambda: any("within sum_squares" in str(n.message)
                                       for n in app._notifications), what="the refusal")
        assert app.location.line == 22 and app.location.function == "sum_squares"


def test_a_source_only_the_executive_finds_is_shown(execd, tmp_path):
    """This machine lacks the `.sym` that maps `src/walk.c` to where it was built (as
    when the executive runs on another machine): the text comes through the executive."""
    for name in ("src", "build"):
        (tmp_path / name).mkdir()
    (tmp_path / "src" / "walk.c").write_text((PROGRAMS / "walk.c").read_text())
    subprocess.run([sys.executable, "-m", "hsx", "cc", "-g", "-O0", "src/walk.c", "-o",
                    "build/walk.hxe"], cwd=tmp_path, check=True, capture_output=True,
                   timeout=300)
    pid = load(execd, tmp_path / "build" / "walk.hxe")
    (tmp_path / "build" / "walk.sym").unlink()
    run(lambda: _remote_source(execd, tmp_path, pid))


async def _remote_source(execd, tmp_path, pid):
    app = make_app(execd, tmp_path, pid, start=Target.start)
    async with app.run_test(size=(100, 32)) as pilot:
        await until(pilot, stopped_at(app, 29, "main"), what="start at main's first line")
        source = app.query_one(SourceView)
        await until(pilot, lambda: source.file is not None, what="the source shown")
        assert source.file.path == tmp_path / "src" / "walk.c"
        assert "sum_squares(3)" in source.render_row(source.row_of(29)).plain


def test_find_in_the_source_wraps_around_and_says_when_nothing_matches(execd, walk, tmp_path):
    run(lambda: _find_in_source(execd, walk, tmp_path))


async def _find_in_source(execd, walk, tmp_path):
    async with at_main(execd, walk, tmp_path) as (app, pilot):
        source = app.query_one(SourceView)
        source.focus()
        await pilot.press("slash", *"counter", "enter")          # from line 29: wraps to 10
        await until(pilot, lambda: source.cursor_line() == 10, what="the first match")
        await pilot.press("f3")
        await until(pilot, lambda: source.cursor_line() == 22, what="the next match")
        await pilot.press("shift+f3")
        await until(pilot, lambda: source.cursor_line() == 10, what="back to the previous")
        await pilot.press("slash", "ctrl+u", *"Counter", "enter")  # capitals: case matters
        await until(pilot, lambda: any("'Counter' is not in" in str(n.message)
                                       for n in app._notifications), what="no match")
        assert source.cursor_line() == 10


def test_rebuild_and_restart_keeps_the_breakpoints_and_runs_the_new_build(execd, tmp_path):
    source = tmp_path / "walk.c"
    source.write_text((PROGRAMS / "walk.c").read_text())
    launched = launch(source, *execd)
    try:
        run(lambda: _rebuild_and_restart(execd, tmp_path, launched, source))
    finally:
        launched.close()


async def _rebuild_and_restart(execd, tmp_path, launched, source):
    app = make_app(execd, tmp_path, launched.pid, start=Target.start, rebuild=launched.rebuild)
    async with app.run_test(size=(100, 32)) as pilot:
        await until(pilot, stopped_at(app, 29, "main"), what="start at main's first line")
        first = app.pid
        view = app.query_one(SourceView)
        view.focus()
        view.move_cursor(view.row_of(22))
        await pilot.press("b")
        await until(pilot, lambda: user_lines(app) == [22])

        source.write_text(source.read_text().replace("return result == 14 ? 0 : 1;",
                                                     "return 7;"))
        await pilot.press("ctrl+r")
        await until(pilot, lambda: app.pid != first and stopped_at(app, 29, "main")(),
                    timeout=60, what="the new build started")
        await until(pilot, lambda: user_lines(app) == [22], what="the breakpoint kept")
        await pilot.press("c")
        await until(pilot, stopped_at(app, 22, "sum_squares"), what="the breakpoint hit")
        await pilot.press("b")                                   # off again, then to the end
        await until(pilot, lambda: user_lines(app) == [])
        await pilot.press("c")
        await until(pilot, lambda: app.task.state == "returned", what="the end")
        assert app.task.exit_status == 7

        source.write_text("int main(void) { return nosuch; }\n")
        await pilot.press("ctrl+r")
        await until(pilot, lambda: any("nosuch" in str(n.message) for n in app._notifications),
                    timeout=60, what="the compiler's error")
        assert app.task.exit_status == 7                         # still the last task


def test_a_restarted_task_does_not_show_where_the_old_one_stopped(execd, walk, tmp_path):
    run(lambda: _restart_forgets_the_old_place(execd, walk, tmp_path))


async def _restart_forgets_the_old_place(execd, walk, tmp_path):
    held = asyncio.Event()

    async def start_when_let_go(target):
        if target.pid != first:                   # the restarted task waits for the test
            await held.wait()
        await Target.start(target)

    first = load(execd, walk)
    app = make_app(execd, tmp_path, first, start=start_when_let_go)
    async with app.run_test(size=(100, 32)) as pilot:
        await until(pilot, stopped_at(app, 29, "main"), what="start at main's first line")
        await pilot.press("ctrl+r")
        await until(pilot, lambda: app.pid != first, what="the new task adopted")
        await pilot.pause(0.2)
        assert app.location is None and app.frames == ()     # not main:29 of the old task
        assert not stopped_at(app, 29, "main")()
        held.set()
        await until(pilot, stopped_at(app, 29, "main"), what="the new task at main")


def test_mixed_source_and_disassembly(execd, walk, tmp_path):
    run(lambda: _mixed_source_and_disassembly(execd, walk, tmp_path))


async def _mixed_source_and_disassembly(execd, walk, tmp_path):
    async with at_main(execd, walk, tmp_path) as (app, pilot):
        source = app.query_one(SourceView)
        source.focus()
        rows = source.row_count
        await pilot.press("m")                                   # each line's instructions
        await until(pilot, lambda: source.row_count > rows, what="instructions under lines")
        assert source.cursor_line() == 29                        # still on the current line
        with Client(*execd) as client:
            line22 = client.request("disasm.read", pid=app.pid, file="walk.c", line=22,
                                    count=1, mode="from")["disasm"]["instructions"][0]
        row = source.row_of(22)
        assert source.cursor_location() != line22["pc"]
        assert source.render_row(row).plain.endswith("counter = counter + 1;")
        under = source.render_row(row + 1).plain                 # its first instruction
        assert f"{line22['pc']:#06x}" in under and line22["text"] in under
        pc_row = next(r for r in range(source.row_count)
                      if f"{app.location.pc:#06x}" in source.render_row(r).plain)
        assert "▶" in source.render_row(pc_row).plain and pc_row > source.row_of(29)

        source.move_cursor(row + 1)                              # an instruction: its address
        assert source.cursor_location() == line22["pc"]
        await pilot.press("b")
        await until(pilot, lambda: [bp.address for bp in app.breakpoints
                                    if bp.kind == "breakpoint"] == [line22["pc"]])
        assert source.render_row(row + 1).plain.startswith("●")   # marked on its row
        await pilot.press("c")
        await until(pilot, stopped_at(app, 22, "sum_squares"), what="the breakpoint")
        await pilot.press("m")                                   # back to lines only
        await until(pilot, lambda: source.row_count == rows, what="lines only")
        assert source.cursor_line() == 22


def test_ctrl_r_after_a_failed_build_keeps_the_breakpoints(execd, tmp_path):
    source = tmp_path / "walk.c"
    source.write_text((PROGRAMS / "walk.c").read_text())
    launched = launch(source, *execd)
    try:
        run(lambda: _ctrl_r_after_a_failed_build(execd, tmp_path, launched, source))
    finally:
        launched.close()


async def _ctrl_r_after_a_failed_build(execd, tmp_path, launched, source):
    """The failed build's message stayed on screen while the next ctrl+r rebuilt, which
    looked as if that one had failed too; pressed again, two restarts of the same task
    ran at once, and the new task the debugger ended on had no breakpoints."""
    builds: list[str] = []
    finish = threading.Event()

    def rebuild():                   # a good build ends when the test lets it
        builds.append(source.read_text())
        launched.rebuild()
        finish.wait(60)

    app = make_app(execd, tmp_path, launched.pid, start=Target.start, rebuild=rebuild)
    async with app.run_test(size=(100, 32)) as pilot:
        await until(pilot, stopped_at(app, 29, "main"), what="start at main's first line")
        first = app.pid
        view = app.query_one(SourceView)
        view.focus()
        view.move_cursor(view.row_of(22))
        await pilot.press("b")
        await until(pilot, lambda: user_lines(app) == [22])

        good = source.read_text()
        source.write_text(good.replace("int total = 0;", "int total = 0"))
        await pilot.press("ctrl+r")
        await until(pilot, lambda: messages(app, "the build failed"), timeout=60,
                    what="the compiler's error")
        source.write_text(good)
        await pilot.press("ctrl+r")
        await until(pilot, lambda: len(builds) == 2, what="the second build")
        assert not messages(app, "the build failed")            # no longer on screen
        await pilot.press("ctrl+r")                              # impatient: refused
        await until(pilot, lambda: messages(app, "a restart is under way"),
                    what="the second ctrl+r refused")
        finish.set()
        await until(pilot, lambda: app.pid != first and stopped_at(app, 29, "main")()
                    and app._busy == 0, timeout=60, what="the new build started")
        assert len(builds) == 2 and user_lines(app) == [22]
        with Client(*execd) as client:
            live = [row["pid"] for row in client.request("ps")["tasks"]["tasks"]
                    if row["state"] not in ("returned", "faulted", "killed")
                    and row["pid"] >= first]
        assert live == [app.pid]                                 # one new task, not two
        await pilot.press("c")
        await until(pilot, stopped_at(app, 22, "sum_squares"), what="the breakpoint hit")

        second = app.pid                                         # line 22 is gone: said so
        source.write_text("int main(void) {\n    return 7;\n}\n")
        await pilot.press("ctrl+r")
        await until(pilot, lambda: app.pid != second and app._busy == 0, timeout=60,
                    what="the one-line program")
        assert messages(app, "not carried over")
        assert any("walk.c:22" in line and "not carried over" in line for line in app.output)


def messages(app, text: str) -> list[str]:
    """The notifications on screen that say `text`."""
    return [str(n.message) for n in app._notifications if text in f"{n.title} {n.message}"]
