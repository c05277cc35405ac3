"""`hsx cc -g`: the source line of every instruction, the line of each function, and
how source files are named and found (docs/c-compiler.md, "Debug information")."""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from hsx.debug.code import CodeMap
from hsx.image.sym import read_sym, write_sym
from hsx.isa import decode_code
from hsx.isa.compact import operations
from hsx.vm import Machine, StandaloneSvc

SOURCE = """#include <hsx_sys.h>
#include "util.h"
int
spread(int a, int b, int c, int d, int e, int f)
{
    return a + b * c - d + e * f;
}

int main(void)
{
    return spread(1, 2, 3, 4, 5, 6) + twice((int)hsx_steps() & 1);
}
"""
UTIL = "static int twice(int v)\n{\n    return 2 * v;\n}\n"


def _build(source: Path, opt: int = 0, include: Path | None = None):
    from hsx.toolchain.cc.driver import Options, build_c
    options = Options(opt=opt, debug=True, include_dirs=(str(include),) if include else ())
    result, _ = build_c([str(source)], options, "lines")
    return result


def _instructions(result, name: str) -> list[int]:
    ctx = Machine(StandaloneSvc()).create_context(result.image)
    code = CodeMap(ctx.decoded, ctx.code_len, result.image.entry, result.symbols)
    fn = result.symbols.symbol(name)
    return [pc for pc in code.starts if fn.address <= pc < fn.address + fn.size]


@pytest.fixture
def project(tmp_path, monkeypatch):
    """build/ (the current directory) with prog.c and sub/util.h below it."""
    build = tmp_path / "build"
    (build / "sub").mkdir(parents=True)
    (build / "prog.c").write_text(SOURCE)
    (build / "sub" / "util.h").write_text(UTIL)
    monkeypatch.chdir(build)
    return build


@pytest.mark.parametrize("opt", [0, 2])
def test_every_instruction_of_a_c_function_has_a_line(project, opt):
    """The prologue and the arguments' spills at entry included: `step.line` and the
    stack never meet code without a line in a -g function."""
    result = _build(Path("prog.c"), opt, Path("sub"))
    table = result.symbols
    for name in ("spread", "main"):
        pcs = _instructions(result, name)
        assert pcs and all(table.line_for(pc) is not None for pc in pcs), name


def test_a_function_line_is_its_entry_and_its_body_begins_after_the_prologue(project):
    """`int\\nspread(...)\\n{` -- the entry (the prologue and the arguments' spills) is
    the opening brace's line, and so is the function's line in the .sym; its `body`
    (where a breakpoint on the function stops, DWARF's prologue_end) is the first
    instruction of the body's line, past the six spills."""
    result = _build(Path("prog.c"), 0, Path("sub"))
    table = result.symbols
    for name, line, body_line in (("spread", 5, 6), ("main", 10, 11), ("twice", 2, 3)):
        fn = table.symbol(name)
        entry = table.line_for(fn.address)
        assert (entry.file, entry.line) == (fn.file, fn.line) == (fn.file, line)
        pcs = _instructions(result, name)
        assert fn.body in pcs and fn.body > fn.address
        assert table.line_for(fn.body).line == body_line
        assert {table.line_for(pc).line for pc in pcs if pc < fn.body} == {line}
    spread = table.symbol("spread")
    code = result.image.code_words
    entry = [op for k in range(spread.address // 4, spread.body // 4)
             for op in operations(decode_code(code, k))]
    assert len(entry) >= 2 + 6                  # PUSH R14; MOV R14, R15; 6 ST (some paired)
    assert {table.line_for(pc).line for pc in _instructions(result, "spread")} == {5, 6}


@pytest.mark.parametrize("opt", [0, 1, 2])
def test_a_one_line_function_records_its_body_too(tmp_path, opt):
    """All on its opening line, so only the compiler can say where the body begins; the
    argument's copy into a register at -O1 and above is not the body either."""
    source = tmp_path / "one.c"
    source.write_text("__attribute__((noinline)) int triple(int x) { return x * 3; }\n"
                      "int main(void) { return triple(2); }\n")
    result = _build(source, opt)
    fn = result.symbols.symbol("triple")
    assert fn.body is not None and fn.body in _instructions(result, "triple")
    ctx = Machine(StandaloneSvc()).create_context(result.image)
    first = CodeMap(ctx.decoded, ctx.code_len, 0, result.symbols).instruction(fn.body)
    assert first.op.mnemonic not in ("PUSH", "ST", "MOV")   # the body's own work
    assert read_sym(write_sym(result.symbols)).symbol("triple").body == fn.body


def test_files_are_named_from_the_build_directory_and_mapped_to_paths(project, tmp_path):
    """Below the build directory: relative; the C library: `lib/...`; elsewhere:
    absolute.  The .sym's `sources` maps each name to the file."""
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "util.h").write_text(UTIL)
    for include, header in ((Path("sub"), "sub/util.h"),
                            (outside, (outside / "util.h").as_posix())):
        table = _build(Path("prog.c"), 0, include).symbols
        files = {e.file for e in table.lines}
        assert {"prog.c", header, "lib/include/hsx_sys.h", "lib/crt0.mvasm"} <= files
        for name in files:
            assert Path(table.sources[name]).is_file() and os.path.isabs(table.sources[name])
        assert Path(table.sources[header]).read_text() == UTIL
        assert table.symbol("twice").file == header


def test_a_file_outside_the_build_directory_is_named_absolutely(project, tmp_path):
    away = tmp_path / "away"
    away.mkdir()
    (away / "far.c").write_text("int main(void)\n{\n    return 0;\n}\n")
    table = _build(Path("../away/far.c")).symbols
    assert table.symbol("main").file == (away / "far.c").as_posix()


def test_the_startup_code_has_lines_and_its_source(project):
    result = _build(Path("prog.c"), 0, Path("sub"))
    table = result.symbols
    entry = table.line_for(result.image.entry)
    assert entry is not None and entry.file == "lib/crt0.mvasm"
    assert table.symbol("_start").file == "lib/crt0.mvasm"
    crt0 = Path(table.sources["lib/crt0.mvasm"]).read_text().splitlines()
    assert crt0[entry.line - 1].split() == ["LDI", "R14,", "0"]      # its first instruction


def test_two_debug_builds_in_one_directory_keep_their_own_sources(project):
    from click.testing import CliRunner

    from hsx.cli.main import cli
    Path("other.c").write_text("int main(void) { return 1; }\n")
    runner = CliRunner()
    for name in ("prog", "other"):
        args = ["cc", f"{name}.c", "-g", "-o", f"{name}.hxe"] + \
            (["-I", "sub"] if name == "prog" else [])
        assert runner.invoke(cli, args).exit_code == 0
    prog = json.loads(Path("prog.sym").read_text())["sources"]
    other = json.loads(Path("other.sym").read_text())["sources"]
    assert "prog.c" in prog and "other.c" not in prog
    assert "other.c" in other and "prog.c" not in other
    assert not Path("sources.json").exists()
