"""step_out (gdb's `finish`) reports what the function returned, read where the ABI
leaves it, as the function's C return type says."""
from __future__ import annotations

import pytest

from hsx.image.hxe import write_hxe
from hsx.image.sym import write_sym

SOURCE = """\
#define KEEP __attribute__((noinline))
struct pair { int a, b; };
volatile int sink;
KEEP int count(int n) { sink = n; return n * 7; }
KEEP long long big(int n) { sink = n; return (long long)n << 33; }
KEEP double half(int n) { sink = n; return n / 2.0; }
KEEP char letter(int n) { sink = n; return (char)('a' + n); }
KEEP const char *word(int n) { sink = n; return "hello"; }
KEEP void nothing(int n) { sink = n; }
KEEP struct pair both(int n) { struct pair p = {n, n + 1}; sink = n; return p; }
int main(void) {
    int total = count(6) + (int)(big(1) >> 33) + (int)half(3) + letter(2);
    nothing(1);
    total += both(2).b + word(0)[0];
    return total;
}
"""


@pytest.fixture(params=[0, 2], ids=["O0", "O2"])
def program(request, tmp_path):
    from hsx.toolchain.cc import driver
    source = tmp_path / "ret.c"
    source.write_text(SOURCE)
    result, _ = driver.build_c([str(source)], driver.Options(opt=request.param, debug=True),
                               "ret")
    path = tmp_path / "ret.hxe"
    path.write_bytes(write_hxe(result.image))
    path.with_suffix(".sym").write_bytes(write_sym(result.symbols))
    return path


def finish(rig, task, function):
    """Stop at `function`'s first instruction, step out of it: the stop's `returned`."""
    dbg = rig.debugger
    bp = dbg.breakpoints.set(task.pid, function)
    dbg.resume(task.pid)
    rig.run_until_paused(task)
    dbg.breakpoints.clear(bp)
    assert dbg.step_out(task.pid)["function"] == function
    rig.run_until_paused(task)
    stop = rig.breaks(task.pid)[-1]
    assert stop["reason"] == "step"
    return stop.get("returned")


def test_finish_shows_what_each_kind_of_function_returned(rig, program):
    task = rig.kernel.load(program)
    assert finish(rig, task, "count") == {"function": "count", "type": "int",
                                          "value": "42", "ref": 0}
    assert finish(rig, task, "big")["value"] == str(1 << 33)         # R0 and R1
    assert finish(rig, task, "half")["value"] == "1.5"
    assert finish(rig, task, "letter")["value"] == "99 'c'"
    assert finish(rig, task, "nothing") == {"function": "nothing", "type": "void"}
    assert finish(rig, task, "both") == {"function": "both", "type": "struct pair"}
    shown = finish(rig, task, "word")
    assert shown["type"] == "const char *" and '"hello"' in shown["value"]


def test_without_debug_information_there_is_nothing_to_report(rig):
    from debugkit import FACT
    task = rig.load("fact", FACT)
    assert finish(rig, task, "fact") is None                          # MVASM: no C type
