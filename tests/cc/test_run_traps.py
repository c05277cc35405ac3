"""What `hsx run` says when a C program goes wrong in ways clang's optimiser changes:
undefined behaviour clang compiled into a trap (a null pointer written), a division by
zero the VM still performs, a trap the program asked for (abort), a runaway recursion (a
stack overflow at every -O) and one that clang turned into an endless loop (no stack to
overflow: where it runs is shown when it is stopped)."""
from __future__ import annotations

import signal
import subprocess
import sys

import pytest
from click.testing import CliRunner

from hsx.cli import errors
from hsx.cli.main import cli

OPTS = ["0", "1", "2", "s"]

NULL_WRITE = """\
#include <stdio.h>
int main(void) {
    int *p = 0;
    printf("before\\n");
    *p = 42;
    printf("after\\n");
    return 0;
}
"""

# The divisor is known only when the program runs (a volatile read): the division stays
# in the code at every -O.  (`int zero = 0;` would let clang fold it away: c-compiler.md.)
DIVISION = """\
#include <stdio.h>
int divide(int a, int b) { return a / b; }
int main(void) {
    volatile int zero = 0;
    printf("%d\\n", divide(10, zero));
    return 0;
}
"""

# Not a tail call and not a sum clang can accumulate in a loop: a recursion at every -O.
RECURSION = """\
#include <stdio.h>
int depth(int n) { int r = depth(n + 1); return r * r + n; }
int main(void) {
    printf("%d\\n", depth(0));
    return 0;
}
"""

# depth(n + 1) + 1 is a sum clang accumulates: at -O1 and above a loop, using no stack.
ACCUMULATING = """\
#include <stdio.h>
int depth(int n) { return depth(n + 1) + 1; }
int main(void) {
    printf("start\\n");
    fflush(stdout);
    printf("%d\\n", depth(0));
    return 0;
}
"""

ABORT = """\
#include <stdio.h>
#include <stdlib.h>
int main(void) {
    printf("giving up\\n");
    abort();
}
"""


@pytest.fixture(autouse=True)
def in_tmp_path(tmp_path, monkeypatch):
    """Built where the sources are, so their names are short (`nullw.c:5`)."""
    monkeypatch.chdir(tmp_path)


def run(tmp_path, name: str, text: str, *options: str) -> tuple[int, str, list[str]]:
    (tmp_path / f"{name}.c").write_text(text)
    result = CliRunner().invoke(cli, ["run", f"{name}.c", "--root", str(tmp_path / "fs"),
                                      *options])
    return result.exit_code, result.stdout, result.stderr.splitlines()


def line_of(text: str, code: str) -> int:
    return [row.strip() for row in text.splitlines()].index(code) + 1


@pytest.mark.parametrize("opt", OPTS)
def test_a_null_pointer_write_is_named_at_its_line_at_every_level(tmp_path, opt):
    code, out, err = run(tmp_path, "nullw", NULL_WRITE, f"-O{opt}")
    line = line_of(NULL_WRITE, "*p = 42;")
    assert code == errors.EXIT_GUEST and out == "before\n"
    if opt == "0":                     # the store is there and faults on the null page
        assert err[0].startswith("hsx: fault: nullw (pid 1): memory at pc ")
    else:                              # clang replaced it by a trap
        assert err[0] == (f"hsx: nullw (pid 1): the program hit undefined behaviour at "
                          f"nullw.c:{line} (clang inserted a trap)")
        assert "BRK" in err[-1] and "with no debugger attached" not in "\n".join(err)
    assert err[1].endswith(f"in main at nullw.c:{line}")


@pytest.mark.parametrize("opt", OPTS)
def test_a_division_by_zero_faults_where_the_vm_divides_at_every_level(tmp_path, opt):
    code, out, err = run(tmp_path, "div0", DIVISION, f"-O{opt}")
    assert (code, out) == (errors.EXIT_GUEST, "")
    assert err[0].startswith("hsx: fault: div0 (pid 1): divide_by_zero at pc ")
    assert err[1].endswith("at div0.c:2")               # in divide(), or main inlining it


@pytest.mark.parametrize("opt", OPTS)
def test_a_runaway_recursion_is_a_stack_overflow_at_every_level(tmp_path, opt):
    code, _, err = run(tmp_path, "recur", RECURSION, f"-O{opt}")
    assert code == errors.EXIT_GUEST
    assert err[0].startswith("hsx: fault: recur (pid 1): stack_overflow at pc ")
    assert all(row.endswith("in depth at recur.c:2") for row in err[1:4])


def test_an_accumulating_recursion_overflows_at_O0_and_loops_above(tmp_path):
    code, _, err = run(tmp_path, "sum", ACCUMULATING, "-O0")
    assert code == errors.EXIT_GUEST and "stack_overflow" in err[0]
    code, out, err = run(tmp_path, "sum", ACCUMULATING, "-O2", "--max-steps", "200000")
    assert (code, out) == (errors.EXIT_MAX_STEPS, "start\n")
    assert err[0] == "hsx: --max-steps: stopped after 200000 instructions"
    assert err[1].startswith("  sum (pid 1) was at pc ") and err[1].endswith("sum.c:2")


def test_ctrl_c_says_where_a_program_that_never_ends_was(tmp_path):
    (tmp_path / "sum.c").write_text(ACCUMULATING)
    child = subprocess.Popen([sys.executable, "-m", "hsx", "run", "sum.c", "--root",
                              str(tmp_path / "fs")], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    try:
        assert child.stdout.readline() == "start\n"          # it runs its endless loop
        child.send_signal(signal.SIGINT)
        _, err = child.communicate(timeout=120)
    finally:
        child.kill()
    assert child.returncode == errors.EXIT_INTERRUPTED
    first, running = err.splitlines()[:2]
    assert first == "hsx: interrupted"
    # where exactly depends on when the signal came (the loop, or still the fflush that
    # wrote "start"): the --max-steps test above checks the place itself
    assert running.startswith("  sum (pid 1) was at pc 0x") and " in " in running


def test_abort_says_the_program_stopped_itself_and_where_it_was_called(tmp_path):
    code, out, err = run(tmp_path, "quit", ABORT)
    assert (code, out) == (errors.EXIT_GUEST, "giving up\n")
    assert err[0] == "hsx: quit (pid 1): the program stopped: abort() or __builtin_trap()"
    assert err[1].endswith(" in abort") and err[2].endswith("in main at quit.c:5")
