"""Compact pairs in the TUI's disassembly panel: one row per pair with both operations,
`i` steps both, a breakpoint set on a pair's row stops before both, and following the
pair's branch goes to its target."""
from __future__ import annotations

import base64

from mvasmkit import PAIR_BRANCH, PAIR_COUNT, PAIRS
from tuikit import make_app, run, stopped_at, until

from hsx.client import Client
from hsx.image.hxe import write_hxe
from hsx.toolchain.build import build_source
from hsx.tui.target import Target
from hsx.tui.widgets.disasm import DisassemblyView


def test_pairs_in_the_disassembly_panel(execd, tmp_path):
    run(lambda: _pairs_in_the_disassembly_panel(execd, tmp_path))


async def _pairs_in_the_disassembly_panel(execd, tmp_path):
    image = build_source(PAIRS, filename="pairs.mvasm", app_name="pairs")
    with Client(*execd) as client:
        pid = client.request("load", image=base64.b64encode(write_hxe(image)).decode(),
                             paused=True)["pid"]
    app = make_app(execd, tmp_path, pid, start=Target.start)
    async with app.run_test(size=(100, 24)) as pilot:
        await until(pilot, stopped_at(app), what="attached at the entry point")
        disasm = app.query_one(DisassemblyView)
        await until(pilot, lambda: disasm.display and disasm.instructions, what="disassembly")
        count, branch = (disasm.render_row(disasm.row_of(pc)).plain for pc in (4, 8))
        assert "0x0004 ADDI   R1, R1, 1 | CMPI R1, 3" in count
        assert "0x0008 MOV    R0, R1 | BNE 0x0004" in branch
        assert disasm.row_of(12) == disasm.row_of(8) + 1         # one row per pair word

        await pilot.press("i")                                   # LDI R1, 0
        await until(pilot, lambda: stopped_at(app)() and app.location.pc == 4)
        await pilot.press("i")                                   # ADDI | CMPI: both
        await until(pilot, lambda: stopped_at(app)() and app.location.pc == 8)
        assert app.registers.regs[1] == 1 and app.registers.psw & 4   # 1 - 3 < 0: N

        disasm.move_cursor(disasm.row_of(4))
        await pilot.press("b")                                   # a breakpoint on the pair
        await until(pilot, lambda: any(bp.address == 4 for bp in app.breakpoints))
        await pilot.press("c")
        await until(pilot, lambda: stopped_at(app)() and app.location.pc == 4
                    and app.registers.regs[1] == 1, what="the breakpoint, before both")
        disasm.move_cursor(disasm.row_of(8))                     # MOV | BNE 0x0004
        await pilot.press("enter")
        assert disasm.cursor_location() == 4                     # followed to its target
        disasm.move_cursor(disasm.row_of(4))
        await pilot.press("b")
        await until(pilot, lambda: not any(bp.address == 4 for bp in app.breakpoints))
        await pilot.press("c")
        await until(pilot, lambda: app.task.exit_status == 3, what="the end")
