"""Where the console says a C program is: the lines of the frames `bt` lists, in a
pseudo-terminal against a real `hsx execd`."""
from __future__ import annotations

from shellkit import VARS_C, Terminal, build_c

from hsx.toolchain.cc.driver import lib_dir


def source_line(text: str, code: str) -> int:
    return [row.strip() for row in text.splitlines()].index(code) + 1


def crt0_call_line() -> int:
    crt0 = (lib_dir() / "crt0.mvasm").read_text().splitlines()
    return next(n for n, row in enumerate(crt0, 1) if row.split()[:2] == ["LCALL", "main"])


def test_bt_shows_each_caller_on_the_line_of_its_call(execd, tmp_path):
    """`add(&here, i);` ends its line: the call returns into the loop's `i++` (line 13),
    but main is shown where it called, as gdb shows it; so is crt0's `_start`."""
    program = build_c(tmp_path, VARS_C, "vars")
    term = Terminal(execd, tmp_path / "data")
    term.run(f"load {program} --paused", "loaded vars as pid 1")
    term.run("bp set 1 add", "breakpoint")
    term.run("resume 1", "stopped: breakpoint")
    call = source_line(VARS_C, "add(&here, i);")
    term.run("bt 1", rf"#1  0x[0-9A-F]{{4}} in main\+0x[0-9A-F]+ vars\.c:{call}\s",
             rf"#2  0x[0-9A-F]{{4}} in _start\+0x[0-9A-F]+ crt0\.mvasm:{crt0_call_line()}\s")
    assert term.close() == 0


def test_a_breakpoint_on_a_function_stops_past_its_prologue(execd, tmp_path):
    """On add's opening line (and by its name: the same breakpoint) the console stops
    where the body begins, with the arguments in place -- not `not set up` values."""
    program = build_c(tmp_path, VARS_C, "vars")
    opening = source_line(VARS_C, "int add(struct point *p, int n) {")
    body = source_line(VARS_C, "int sum = p->x + p->y + n;")
    term = Terminal(execd, tmp_path / "data")
    term.run(f"load {program} --paused", "loaded vars as pid 1")
    place = rf"breakpoint (\d+) at add\+0x[0-9A-F]+  vars\.c:{body}\s"
    term.run(f"bp set 1 vars.c:{opening}", place)
    term.run("bp set 1 add", place)
    term.run("resume 1", "stopped: breakpoint")
    term.run("p 1 p->x", r"p->x = 1  \(int\)")
    term.run("p 1 n", r"n = 0  \(int\)")
    assert term.close() == 0
