"""Snapshots of the main layouts (pytest-textual-snapshot): `compact` at 80x24, `wide`
at 160x50 and (F2) at 80x24, stopped in a recursive call of an assembled MVASM program
(assembled, not compiled: the compiler's changes do not move these pictures).  After a deliberate
change of the look: `pytest tests/tui --snapshot-update`, and look at the SVGs."""
from __future__ import annotations

import subprocess
import sys

import pytest
from tuikit import PROGRAMS, daemon, load, make_app, stopped_at, until

from hsx.tui.widgets.status import StatusBar


@pytest.fixture
def own_execd(tmp_path):
    """An executive of its own, so the task is always pid 1."""
    yield from daemon(tmp_path / "execd")


@pytest.fixture(scope="module")
def fact(tmp_path_factory):
    out = tmp_path_factory.mktemp("fact")
    source = out / "fact.mvasm"
    source.write_text((PROGRAMS / "fact.mvasm").read_text())
    subprocess.run([sys.executable, "-m", "hsx", "asm", str(source), "-o", str(out / "fact.hxe")],
                   check=True, capture_output=True, timeout=60)
    return out / "fact.hxe"


def scenario(execd, fact, tmp_path, switch_layout=False):
    app = make_app(execd, tmp_path, load(execd, fact))

    async def run_before(pilot) -> None:
        await until(pilot, stopped_at(app))
        if switch_layout:
            await pilot.press("f2")
            await until(pilot, lambda: app.current_layout.name == "wide")
        app.break_at_text("fact")
        await until(pilot, lambda: any(bp.kind == "breakpoint" for bp in app.breakpoints))
        await pilot.press("c")
        await until(pilot, lambda: stopped_at(app, function="fact")() and len(app.frames) == 2,
                    what="fact called")
        await pilot.press("c")                                    # one level deeper
        await until(pilot, lambda: stopped_at(app, function="fact")() and len(app.frames) == 3,
                    what="fact called again")
        entry = app.location.pc                                   # fact's first instruction
        for _ in range(2):                                        # PUSH R14; MOV R14, R15
            pc = app.location.pc
            await pilot.press("n")
            await until(pilot, lambda: stopped_at(app)() and app.location.pc == pc + 4,
                        what=f"a step from {pc:#x}")
        assert app.location.pc == entry + 8                       # on the CMPI
        app.query_one(StatusBar).address = "127.0.0.1:9998"      # the port differs per run
        await pilot.pause(0.3)
    return app, run_before


def test_compact_layout_at_80x24(own_execd, fact, tmp_path, snap_compare):
    app, run_before = scenario(own_execd, fact, tmp_path)
    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)


def test_wide_layout_at_160x50(own_execd, fact, tmp_path, snap_compare):
    app, run_before = scenario(own_execd, fact, tmp_path)
    assert snap_compare(app, terminal_size=(160, 50), run_before=run_before)


def test_wide_layout_at_80x24(own_execd, fact, tmp_path, snap_compare):
    """F2 on a small terminal: the side column and bottom row give the code room, and
    the footer stays."""
    app, run_before = scenario(own_execd, fact, tmp_path, switch_layout=True)
    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)
