"""Source-level stepping on a C program (clang -> our back end), when clang is here."""
from __future__ import annotations

import pytest

from hsx.image.hxe import write_hxe
from hsx.image.sym import write_sym

SOURCE = """\
int counter;
int square(int x) {
    int y = x * x;
    return y;
}
int main(void) {
    int total = 0;
    for (int i = 0; i < 3; i++) {
        total += square(i);
    }
    counter = total;
    return total;
}
"""


@pytest.fixture
def program(tmp_path):
    from hsx.toolchain.cc import driver
    source = tmp_path / "prog.c"
    source.write_text(SOURCE)
    result, _ = driver.build_c([str(source)], driver.Options(debug=True), "prog")
    path = tmp_path / "prog.hxe"
    path.write_bytes(write_hxe(result.image))
    path.with_suffix(".sym").write_bytes(write_sym(result.symbols))
    return path


def test_step_line_on_compiled_c_stays_in_main_and_runs_over_calls(rig, program):
    task = rig.kernel.load(program)
    dbg = rig.debugger
    dbg.run_to(task.pid, "main")
    rig.run_until_paused(task)
    table = dbg.symbols.get(task.pid).table
    while table.line_for(task.ctx.pc) is None:           # past the prologue, onto a line
        dbg.step(task.pid)
    for _ in range(8):
        before = table.line_for(task.ctx.pc)
        dbg.step_line(task.pid)
        rig.run_until_paused(task)
        event = rig.breaks(task.pid)[-1]
        assert event["reason"] == "step" and event["symbol"] == "main"
        assert (event["file"], event["line"]) != (before.file, before.line)
    assert dbg.stack_info(task.pid)["frames"][0]["function"] == "main"
    dbg.resume(task.pid)
    rig.run_until(lambda: task.ended)
    assert task.exit_status == 0 + 1 + 4


def test_symbols_list_globals_and_locals_of_a_g_build(rig, program):
    task = rig.kernel.load(program)
    dbg = rig.debugger
    globals_ = dbg.symbols_list(task.pid, "globals")
    (counter,) = globals_["symbols"]
    assert counter["name"] == "counter" and counter["line"] == 1
    assert globals_["types"][counter["type"]]["name"] == "int"
    assert counter["address"] == dbg.symbols_lookup(task.pid, "counter")["address"]
    locals_ = dbg.symbols_list(task.pid, "locals")
    named = {(v["function"], v["name"]) for v in locals_["symbols"]}
    assert named == {("square", "x"), ("square", "y"), ("main", "total"), ("main", "i")}
    assert all(v["location"]["kind"] == "frame" for v in locals_["symbols"])
