"""Optimised C functions that need no frame have no prologue (docs/abi.md, "Frames"):
the stack walk, `step.out`, `step.line` and the outer frames' variables still work in
and around them; a function called through a pointer keeps its prologue, so the walk
still finds where it starts."""
from __future__ import annotations

import pytest

from hsx.image.hxe import write_hxe
from hsx.image.sym import write_sym

SOURCE = """\
#include <stdlib.h>
#define KEEP __attribute__((noinline))
volatile int sink;
KEEP static int scale(int v, int k) {
    int r = v * k + 1;
    return r;
}
static int by_value(const void *a, const void *b) {
    return *(const int *)a - *(const int *)b;
}
KEEP int outer(int n) {
    int kept = n * 3;
    int r = scale(n, kept);
    sink = r;
    return r + kept;
}
int main(void) {
    int v[4] = { 4, 1, 3, 2 };
    qsort(v, 4, sizeof v[0], by_value);
    return outer(v[0] + v[3]) & 0x7F;
}
"""
LINE = {text.strip(): n for n, text in enumerate(SOURCE.splitlines(), 1)}


def _build(tmp_path, name: str, source: str, opt, debug: bool):
    from hsx.toolchain.cc import driver
    path = tmp_path / f"{name}.c"
    path.write_text(source)
    result, units = driver.build_c([str(path)], driver.Options(opt=opt, debug=debug), name)
    image = path.with_suffix(".hxe")
    image.write_bytes(write_hxe(result.image))
    image.with_suffix(".sym").write_bytes(write_sym(result.symbols))
    return image, units[0].mvasm


@pytest.fixture(params=[2, "s"], ids=["O2", "Os"])
def program(request, tmp_path):
    return _build(tmp_path, "leaf", SOURCE, request.param, True)


def _body(mvasm: str, name: str) -> list[str]:
    lines = mvasm.splitlines()
    start = lines.index(f"{name}:") + 1
    return [line.strip() for line in lines[start:start + 4]]


def test_a_leaf_has_no_frame_and_a_pointer_target_keeps_one(program):
    _, mvasm = program
    assert "PUSH R14" not in _body(mvasm, "scale")
    assert _body(mvasm, "by_value")[:2] == ["PUSH R14", "MOV R14, R15"]
    assert _body(mvasm, "outer")[:2] == ["PUSH R14", "MOV R14, R15"]


def test_the_stack_and_outer_variables_from_inside_a_frameless_leaf(rig, program):
    path, _ = program
    task = rig.kernel.load(path)
    dbg = rig.debugger
    dbg.breakpoints.set(task.pid, "scale")
    rig.run_until_paused(task)
    frames = dbg.stack_info(task.pid)["frames"]
    assert [f["function"] for f in frames] == ["scale", "outer", "main", "_start"]
    assert dbg.evaluate(task.pid, 0, "v")["value"] == "5"         # 1 + 4 after the sort
    assert dbg.evaluate(task.pid, 1, "kept")["value"] == "15"     # outer's, kept in R6..
    dbg.step_line(task.pid, "out")
    rig.run_until_paused(task)
    assert dbg.stack_info(task.pid)["frames"][0]["function"] == "outer"
    assert task.ctx.regs[0] == 5 * 15 + 1


def test_inside_a_comparator_called_by_the_library(rig, program):
    path, _ = program
    task = rig.kernel.load(path)
    dbg = rig.debugger
    dbg.breakpoints.set(task.pid, "by_value")
    rig.run_until_paused(task)
    names = [f["function"] for f in dbg.stack_info(task.pid)["frames"]]
    assert names[0] == "by_value" and names[-2:] == ["main", "_start"] and "qsort" in names


FIB = """\
#define KEEP __attribute__((noinline))
KEEP static unsigned fib(unsigned n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
int main(void) { return (int)fib(7); }
"""


@pytest.fixture(params=[False, True], ids=["plain", "g"])
def fib_program(request, tmp_path):
    return _build(tmp_path, "fib", FIB, 2, request.param)


def test_the_quick_way_out_comes_before_the_frame(fib_program):
    _, mvasm = fib_program
    body = mvasm.split("\nfib:\n", 1)[1].split("\n\n", 1)[0].split("\n")
    code = [line.strip() for line in body if not line.startswith(".")]
    first_ret, prologue = code.index("RET"), code.index("PUSH R14")
    assert first_ret < prologue and code[prologue + 1] == "MOV R14, R15"


def test_every_instruction_of_a_shrink_wrapped_recursion_walks_to_main(rig, fib_program):
    """Stepping fib(7) one instruction at a time: at every stop the walk reaches main
    without a note, and the depth changes by at most one per instruction."""
    path, _ = fib_program
    task = rig.kernel.load(path)
    dbg = rig.debugger
    dbg.breakpoints.set(task.pid, "fib")
    rig.run_until_paused(task)
    depth, deepest = 1, 1
    for _ in range(600):
        walk = dbg.stack_info(task.pid, max_frames=64)
        names = [f["function"] for f in walk["frames"]]
        assert walk["note"] is None and names[-2:] == ["main", "_start"], names
        assert set(names[:-2]) == {"fib"} and abs(len(names) - 2 - depth) <= 1, names
        depth = len(names) - 2
        deepest = max(deepest, depth)
        dbg.step(task.pid)
        if task.ctx.pc == dbg.symbols.get(task.pid).table.address_of("main") or \
                "fib" not in {f["function"] for f in dbg.stack_info(task.pid)["frames"]}:
            break
    assert deepest >= 5


def test_a_line_step_into_a_frameless_function_stops_at_its_first_line(rig, program):
    path, _ = program
    task = rig.kernel.load(path)
    dbg = rig.debugger
    bp = dbg.breakpoints.set(task.pid, f"leaf.c:{LINE['int r = scale(n, kept);']}")
    rig.run_until_paused(task)
    dbg.breakpoints.clear(bp)
    table = dbg.symbols.get(task.pid).table
    for _ in range(4):                                  # into scale, at most a few lines on
        dbg.step_line(task.pid, "into")
        rig.run_until_paused(task)
        if dbg.stack_info(task.pid)["frames"][0]["function"] == "scale":
            break
    assert task.ctx.pc == table.address_of("scale")      # its first instruction: no prologue
    assert table.line_for(task.ctx.pc).line == LINE["int r = v * k + 1;"]


def test_fibs_quick_path_is_the_compare_the_result_and_ret(tmp_path):
    """The copied return block computes `n + 0` from the phi's constant: folded away."""
    _, mvasm = _build(tmp_path, "fib", FIB, 2, False)
    body = mvasm.split("\nfib:\n", 1)[1].split("\n\n", 1)[0].split("\n")
    code = [line.strip() for line in body if not line.startswith(".")]
    assert code[:code.index("RET") + 1] == ["CMPI R1, 2", "BGEU .Lfib.2", "MOV R0, R1", "RET"]
