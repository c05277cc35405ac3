"""`step_line` over, into and out on a real C program built by `hsx cc -g` at -O0 and
-O2, through a recursive function: over a recursive call stays at the same depth, into
enters the call (one frame deeper), out returns to the caller."""
from __future__ import annotations

import pytest

from hsx.image.hxe import write_hxe
from hsx.image.sym import write_sym

SOURCE = """\
#define KEEP __attribute__((noinline))
volatile int sink;
KEEP int fact(int n) {
    if (n <= 1)
        return 1;
    int rest = fact(n - 1);
    sink = rest;
    return n * rest;
}
int main(void) {
    int r = fact(4);
    sink = r;
    return r;
}
"""
LINE = {text.strip(): number for number, text in enumerate(SOURCE.splitlines(), 1)
        if text.strip() != "}" or number < 10}


@pytest.fixture(params=[0, 2], ids=["O0", "O2"])
def program(request, tmp_path):
    from hsx.toolchain.cc import driver
    source = tmp_path / "rec.c"
    source.write_text(SOURCE)
    result, _ = driver.build_c([str(source)], driver.Options(opt=request.param, debug=True),
                               "rec")
    path = tmp_path / "rec.hxe"
    path.write_bytes(write_hxe(result.image))
    path.with_suffix(".sym").write_bytes(write_sym(result.symbols))
    return path


def depth(rig, task) -> int:
    return [f["function"] for f in rig.debugger.stack_info(task.pid)["frames"]].count("fact")


def line_step(rig, task, mode):
    rig.debugger.step_line(task.pid, mode)
    rig.run_until_paused(task)
    event = rig.breaks(task.pid)[-1]
    assert event["reason"] == "step"
    return event["symbol"], event["line"], depth(rig, task)


def stop_in_fact(rig, task, n):
    dbg = rig.debugger
    bp = dbg.breakpoints.set(task.pid, f"rec.c:{LINE['int rest = fact(n - 1);']}",
                             condition=f"n == {n}")
    rig.run_until_paused(task)
    dbg.breakpoints.clear(bp)


def test_over_a_recursive_call_reaches_the_next_line_at_the_same_depth(rig, program):
    task = rig.kernel.load(program)
    stop_in_fact(rig, task, 3)
    assert depth(rig, task) == 2                         # fact(4) -> fact(3)
    assert line_step(rig, task, "over") == ("fact", LINE["sink = rest;"], 2)
    assert rig.debugger.evaluate(task.pid, 0, "rest")["value"] == "2"
    assert line_step(rig, task, "over") == ("fact", LINE["return n * rest;"], 2)
    stops = [line_step(rig, task, "over")]
    if stops[-1][2] == 2:                                # the closing brace (the epilogue)
        assert stops[-1] == ("fact", LINE["}"], 2)
        stops.append(line_step(rig, task, "over"))
    # out of fact(3): back in fact(4) at the call's return address (which optimised
    # code may give to the next line already)
    symbol, line, frames = stops[-1]
    assert (symbol, frames) == ("fact", 1)
    assert line in (LINE["int rest = fact(n - 1);"], LINE["sink = rest;"])
    assert len(rig.breaks(task.pid)) == 3 + len(stops)   # one stop per step, none deeper


def test_into_enters_the_recursive_call_and_out_returns_from_it(rig, program):
    task = rig.kernel.load(program)
    dbg = rig.debugger
    stop_in_fact(rig, task, 3)
    symbol, line, frames = line_step(rig, task, "into")
    assert (symbol, frames) == ("fact", 3)               # fact(2), past its prologue
    assert line == LINE["if (n <= 1)"]
    assert dbg.evaluate(task.pid, 0, "n")["value"] == "2"
    symbol, line, frames = line_step(rig, task, "out")   # back in fact(3)
    assert (symbol, frames) == ("fact", 2)
    assert dbg.evaluate(task.pid, 0, "n")["value"] == "3"
    assert task.ctx.regs[0] == 2                         # fact(2) returned 2


def test_into_a_line_without_calls_is_over(rig, program):
    task = rig.kernel.load(program)
    stop_in_fact(rig, task, 4)
    line_step(rig, task, "over")                         # to `sink = rest;`
    assert line_step(rig, task, "into") == ("fact", LINE["return n * rest;"], 1)


def test_from_the_entry_point_line_steps_go_through_crt0_into_main(rig, program):
    """The startup code has lines (lib/crt0.mvasm): a debugger stopped at the first
    instruction steps by line through it, and `into` enters main past its prologue."""
    task = rig.kernel.load(program)
    rig.debugger.pause(task.pid)
    assert task.ctx.pc == rig.debugger.symbols.get(task.pid).table.address_of("_start")
    seen = []
    while len(seen) < 10 and (not seen or seen[-1][0] != "main"):
        seen.append(line_step(rig, task, "into"))
    assert [s for s, _, _ in seen[:-1]] == ["_start"] * (len(seen) - 1)
    assert seen[-1] == ("main", LINE["int r = fact(4);"], 0)
