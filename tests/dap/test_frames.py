"""Where the adapter says a C program is: the lines of the Call Stack's frames and of the
stack an exception shows, on a program whose calls end their lines."""
from __future__ import annotations

from dapkit import line_of

from hsx.toolchain.cc.driver import lib_dir

FAULTS = """\
int *target;

void store(int v) {
    *target = v;          /* line: fault */
}

int main(void) {
    store(7);             /* line: call store */
    return 0;             /* line: after the call */
}
"""


def crt0_call_line() -> int:
    crt0 = (lib_dir() / "crt0.mvasm").read_text().splitlines()
    return next(n for n, row in enumerate(crt0, 1) if row.split()[:2] == ["LCALL", "main"])


def test_callers_show_the_line_of_their_call_in_the_stack_and_the_exception(dap, execd,
                                                                            tmp_path):
    """`store(7);` ends its line, so main's return address is on the next line: the
    frame must show the call's line, as gdb does (and `_start` its `LCALL main`)."""
    source = tmp_path / "faults.c"
    source.write_text(FAULTS)
    pid = dap.launch(source, execd)
    dap.stopped("exception")
    frames = dap.ok("stackTrace", threadId=pid)["stackFrames"]
    assert [(f["name"], f["line"]) for f in frames] == [
        ("store", line_of(source, "fault")), ("main", line_of(source, "call store")),
        ("_start", crt0_call_line())]
    shown = dap.ok("exceptionInfo", threadId=pid)["details"]["stackTrace"]
    assert f"faults.c:{line_of(source, 'call store')}" in shown
    assert f"faults.c:{line_of(source, 'after the call')}" not in shown


def test_a_breakpoint_on_a_function_s_opening_line_stops_with_its_arguments(dap, built,
                                                                            execd):
    """The line of `static int twice(int x) {` verifies on the body's first line (as
    gdb moves it) and stops there with `x` readable, not before the prologue."""
    source = built / "prog.c"
    opening = line_of(source, "twice body") - 1
    assert source.read_text().splitlines()[opening - 1].startswith("static int twice(")
    pid = dap.launch(built / "prog.hxe", execd, stopOnEntry=True)
    dap.stopped("entry")
    result = dap.ok("setBreakpoints", source={"path": str(source)},
                    breakpoints=[{"line": opening}])["breakpoints"]
    assert result[0]["verified"] and result[0]["line"] == line_of(source, "twice body")
    dap.ok("continue", threadId=pid)
    dap.stopped("breakpoint")
    top = dap.top_frame(pid)
    assert (top["name"], top["line"]) == ("twice", line_of(source, "twice body"))
    assert dap.scope_variables(top["id"], "Arguments")["x"]["value"] == "10"
