"""Variables of an -O2 build (register homes, windows between #dbg_value records,
outer frames through the callees' saves, values computed by DWARF operations) checked
against what the program has there."""
from __future__ import annotations

import pytest

from hsx.debug import DebugError
from hsx.image.hxe import write_hxe
from hsx.image.sym import write_sym

SOURCE = """\
#define KEEP __attribute__((noinline))
volatile int sink;
KEEP int work(int x) {
    sink = x;
    return x * 3;
}
int main(void) {
    int sum = 0;
    for (int i = 0; i < 5; i++) {
        int w = work(i + sum);
        sum += w;
    }
    return sum & 0x7F;
}
"""


@pytest.fixture(params=[0, 1, 2], ids=["O0", "O1", "O2"])
def task(request, rig, tmp_path):
    from hsx.toolchain.cc import driver
    source = tmp_path / "loop.c"
    source.write_text(SOURCE)
    result, _ = driver.build_c([str(source)], driver.Options(opt=request.param, debug=True),
                               "loop")
    path = tmp_path / "loop.hxe"
    path.write_bytes(write_hxe(result.image))
    path.with_suffix(".sym").write_bytes(write_sym(result.symbols))
    return rig.kernel.load(path)


def shown(rig, task, frame: int) -> dict[str, str]:
    listing = rig.debugger.frame_variables(task.pid, frame)
    return {v["name"]: v["value"] for v in listing["arguments"] + listing["locals"]
            if v["available"]}


def test_every_iteration_shows_the_loop_state_in_both_frames(rig, task):
    rig.debugger.breakpoints.set(task.pid, "loop.c:4")      # sink = x;
    total = 0
    for i in range(5):
        rig.run_until_paused(task)
        assert shown(rig, task, 0) == {"x": str(i + total)}
        outer = shown(rig, task, 1)
        assert outer["i"] == str(i) and outer["sum"] == str(total)
        total += (i + total) * 3
        rig.debugger.resume(task.pid)
    rig.run_until(lambda: task.ended)
    assert task.exit_status == total & 0x7F


COMPUTED = """\
#define KEEP __attribute__((noinline))
volatile int sink;
KEEP int inner(int v) { sink = v; return v + 1; }
KEEP int outer(int b) {
    int c = b * 3;
    int r = inner(b + 1);
    return r + c + b;
}
int main(void) { return outer(7) & 0x7F; }
"""


def test_a_variable_computed_from_a_register_reads_but_cannot_be_set(rig, tmp_path):
    """At -O2 clang keeps `c` as `b * 3` (a DWARF expression over b's register)."""
    from hsx.toolchain.cc import driver
    source = tmp_path / "computed.c"
    source.write_text(COMPUTED)
    result, _ = driver.build_c([str(source)], driver.Options(opt=2, debug=True), "computed")
    path = tmp_path / "computed.hxe"
    path.write_bytes(write_hxe(result.image))
    path.with_suffix(".sym").write_bytes(write_sym(result.symbols))
    computed = [v for v in result.symbols.locals if v.name == "c" and v.location.get("compute")]
    assert computed and computed[0].location["compute"] == ["DW_OP_constu", 3, "DW_OP_mul"]
    task = rig.kernel.load(path)
    rig.debugger.breakpoints.set(task.pid, "inner")
    rig.run_until_paused(task)
    assert shown(rig, task, 1)["c"] == "21" and shown(rig, task, 1)["b"] == "7"
    assert rig.debugger.evaluate(task.pid, 1, "c - b")["value"] == "14"
    with pytest.raises(DebugError) as error:
        rig.debugger.assign(task.pid, 1, "c", "1")
    assert "cannot be assigned" in str(error.value)


@pytest.mark.parametrize("ops, value, expected", [
    (["DW_OP_constu", 3, "DW_OP_mul"], 7, 21),
    (["DW_OP_plus_uconst", 5], 0xFFFFFFFE, 3),
    (["DW_OP_consts", 2, "DW_OP_shra"], 0xFFFFFFF0, 0xFFFFFFFC),
    (["DW_OP_dup", "DW_OP_mul", "DW_OP_neg"], 3, 0xFFFFFFF7),
    (["DW_OP_constu", 4, "DW_OP_swap", "DW_OP_minus"], 10, 0xFFFFFFFA),
])
def test_dwarf_operations_on_32_bit_words(ops, value, expected):
    from hsx.debug import dwarf
    assert dwarf.compute(ops, value) == expected


WIDENED = """\
#include <stdint.h>
#define KEEP __attribute__((noinline))
volatile uint64_t sink;
KEEP void take(uint64_t v) {
    sink = v;
}
int main(void) {
    uint64_t h = 7;
    for (int i = 0; i < 300; i++) {
        h = (h ^ (uint64_t)i) * 1099511628211ull;
        if ((i & 63) == 5)
            take(h);
    }
    return (int)(h & 0x7F);
}
"""


@pytest.mark.parametrize("counter", ["int", "long long"])
def test_a_counter_clang_widened_shows_its_value(rig, tmp_path, counter):
    """clang makes an `int` i an i64 (it is used as one); hsx cc keeps it in one
    register (narrow.py), where the debugger finds the int.  A `long long` i keeps its
    two registers under -g: the debugger reads all 8 bytes of it."""
    from hsx.toolchain.cc import driver
    source = tmp_path / "widened.c"
    source.write_text(WIDENED.replace("for (int i", f"for ({counter} i"))
    result, _ = driver.build_c([str(source)], driver.Options(opt=2, debug=True), "widened")
    path = tmp_path / "widened.hxe"
    path.write_bytes(write_hxe(result.image))
    path.with_suffix(".sym").write_bytes(write_sym(result.symbols))
    task = rig.kernel.load(path)
    rig.debugger.breakpoints.set(task.pid, "widened.c:5")      # sink = v;
    for i in range(5, 300, 64):
        rig.run_until_paused(task)
        assert shown(rig, task, 1)["i"] == str(i)
        rig.debugger.resume(task.pid)
    rig.run_until(lambda: task.ended)
