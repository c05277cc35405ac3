"""Linker garbage collection (hsx.toolchain.gc): `hsx cc` leaves out the functions and
data nothing reachable from main uses -- also what only they used, in the program and
in the C library -- and keeps what a function pointer, a data initialiser or a command
record names; `--no-gc-sections` keeps everything, and so does -g unless
`--gc-sections` is given; `hsx link --gc-sections` does the same for `hsx cc -c`
objects and keeps an .mvasm object whole."""
from __future__ import annotations

from pathlib import Path

import pytest

from cckit import hsx, run_image

from hsx.image.hxe import read_hxe_file
from hsx.image.sym import load_sym

PROGRAM = r"""
#include <stdio.h>
#include <stdlib.h>
#include <hsx_command.h>

static const int unused_table[600] = {1, 2, 3};          /* 2,400 bytes nobody reads */
int unused_counter = 5;
static char unused_buffer[4096];

static int compare(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }

int only_for_sorting(int *v, int n)             /* reached only from an unused function */
{
    qsort(v, n, sizeof *v, compare);
    return v[0] + unused_table[n] + unused_buffer[n];
}

int never_called(int *v)
{
    unused_counter++;
    unused_buffer[v[0] & 4095] = 1;
    return only_for_sorting(v, 3);
}

static int twice(int x) { return 2 * x; }
static int thrice(int x) { return 3 * x; }
int (*const table[])(int) = {twice, thrice};     /* reached through data */

__attribute__((used)) static int on_ping(void) { return 7; }
HSX_COMMAND(16, 1, "ping", on_ping);             /* reached through the command record */

int main(int argc, char **argv)
{
    printf("%d %d\n", table[0](20), table[argc > 5](5));
    return 0;
}
"""

DROPPED = {"unused_table", "unused_counter", "unused_buffer", "only_for_sorting",
           "never_called", "compare", "qsort"}
KEPT = {"main", "twice", "thrice", "table", "on_ping", "printf"}


def names(sym: Path) -> set[str]:
    table = load_sym(sym)
    return {s.name for s in table.functions + table.variables}


def size(image: Path) -> int:
    hxe = read_hxe_file(image)
    return len(hxe.code) + len(hxe.rodata) + hxe.bss_size


@pytest.fixture(scope="module")
def builds(tmp_path_factory):
    folder = tmp_path_factory.mktemp("gc")
    (folder / "prog.c").write_text(PROGRAM)
    for name, extra in (("gc", ()), ("all", ("--no-gc-sections",)), ("debug", ("-g",)),
                        ("debug-gc", ("-g", "--gc-sections"))):
        done = hsx("cc", "-Os", *extra, "prog.c", "-o", f"{name}.hxe", cwd=folder)
        assert done.returncode == 0, done.stderr
    return folder


def test_what_nothing_reachable_uses_is_left_out(builds):
    linked = names(builds / "gc.sym")
    assert linked & DROPPED == set() and KEPT <= linked
    assert DROPPED | KEPT <= names(builds / "all.sym")
    assert size(builds / "all.hxe") - size(builds / "gc.hxe") > 2400 + 4096


def test_a_debug_build_keeps_everything_unless_asked(builds):
    """-g: the debugger can show every function and variable."""
    assert DROPPED | KEPT <= names(builds / "debug.sym")
    assert names(builds / "debug-gc.sym") & DROPPED == set()


def test_the_collected_program_runs(builds):
    out, status = run_image(read_hxe_file(builds / "gc.hxe"))
    assert (out, status) == (b"40 10\n", 0)
    assert hsx("run", "gc.hxe", cwd=builds).stdout == "40 10\n"


def test_hsx_link_collects_objects_and_keeps_mvasm_whole(tmp_path):
    (tmp_path / "prog.c").write_text(
        "int helper(int x);\nint unused(int x) { return x * 7; }\n"
        "int main(void) { return helper(4); }\n")
    (tmp_path / "helper.mvasm").write_text(
        ".text\n.export helper\nhelper:\n    ADDI R0, R1, 1\n    RET\n"
        "spare:\n    LDI R0, 9\n    RET\n")
    (tmp_path / "start.mvasm").write_text(
        ".text\n.export _start\n.import main\n_start:\n    LCALL main\n    SVC 1, 0\n")
    for source in ("prog.c", "helper.mvasm", "start.mvasm"):
        tool = ("cc", "-Os", "-c") if source.endswith(".c") else ("asm",)
        done = hsx(*tool, source, "-o", Path(source).stem + ".hxo", cwd=tmp_path)
        assert done.returncode == 0, done.stderr
    objects = ("start.hxo", "prog.hxo", "helper.hxo")
    done = hsx("link", "--gc-sections", *objects, "-o", "gc.hxe", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert hsx("link", *objects, "-o", "all.hxe", cwd=tmp_path).returncode == 0
    assert {"main", "helper", "spare"} <= names(tmp_path / "gc.sym")
    assert "unused" not in names(tmp_path / "gc.sym")
    assert "unused" in names(tmp_path / "all.sym")
    assert hsx("run", "gc.hxe", cwd=tmp_path).returncode == 5
