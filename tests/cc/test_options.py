"""The compiler's options: `hsx run` takes -O, -g, -I and -D like `hsx cc`; -Os and -Oz
build programs that behave as at -O2; `hsx cc` links MVASM files with C."""
from __future__ import annotations

import pytest
from cckit import PROGRAMS, hsx, run_image

SAMPLE = ["arith_i64", "bitfields", "matrix", "varargs", "string_build", "goto_labels"]


@pytest.mark.parametrize("name", SAMPLE)
def test_size_optimised_builds_behave_as_at_O2(name):
    from hsx.toolchain.cc.driver import Options, build_c
    source = str(PROGRAMS / f"{name}.c")
    expected = run_image(build_c([source], Options(opt=2))[0].image)
    for level in ("s", "z"):
        assert run_image(build_c([source], Options(opt=level))[0].image) == expected, level


def test_hsx_run_takes_the_compiler_options(tmp_path):
    (tmp_path / "inc").mkdir()
    (tmp_path / "inc" / "answer.h").write_text("#define BASE 40\n")
    (tmp_path / "p.c").write_text('#include "answer.h"\n'
                                  "int main(void) { return BASE + EXTRA; }\n")
    for opt in ("-O0", "-O1", "-O2", "-Os", "-Oz"):
        done = hsx("run", opt, "-g", "-I", "inc", "-DEXTRA=2", "p.c", cwd=tmp_path)
        assert (done.returncode, done.stderr) == (42, ""), opt
    done = hsx("run", "-O7", "p.c", cwd=tmp_path)
    assert done.returncode == 2 and "'7' is not one of" in done.stderr


def test_hsx_cc_links_mvasm_with_c(tmp_path):
    (tmp_path / "twice.mvasm").write_text(".export twice\ntwice:  ADD R0, R1, R1\n        RET\n")
    (tmp_path / "main.c").write_text("int twice(int);\nint main(void) { return twice(21); }\n")
    done = hsx("cc", "-Os", "main.c", "twice.mvasm", "-o", "app.hxe", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert hsx("run", "app.hxe", cwd=tmp_path).returncode == 42
