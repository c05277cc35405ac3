"""Variables of an -O2 build (register homes, windows between #dbg_value records,
outer frames through the callees' saves) checked at every hit of a breakpoint in a loop:
each value the debugger shows is the one the program has there."""
from __future__ import annotations

import pytest

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
