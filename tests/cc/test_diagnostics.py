"""What `hsx cc` and `hsx run` say about C they cannot build: clang's diagnostics whole
(file:line:col, the source line, the caret, every error), warnings on success, the
back end's refusals with their file:line, other files refused by name before anything
is built."""
from __future__ import annotations

import pytest
from cckit import hsx

TWO_ERRORS = """int main(void) {
    int x = 1
    return undeclared + x;
}
int other(void) { return missing_too; }
"""


@pytest.mark.parametrize("command", ["cc", "run"])
def test_every_clang_error_is_shown_whole(tmp_path, command):
    (tmp_path / "bad.c").write_text(TWO_ERRORS)
    done = hsx(command, "bad.c", cwd=tmp_path)
    err = done.stderr
    assert done.returncode == (1 if command == "cc" else 2)
    assert "bad.c:2:14: error: expected ';' at end of declaration" in err
    assert "    2 |     int x = 1\n      |              ^" in err          # line and caret
    assert "bad.c:5:26: error: use of undeclared identifier 'missing_too'" in err
    assert "    5 | int other(void) { return missing_too; }" in err
    assert "generated." not in err
    if command == "run":
        assert "the build failed (2 problems)" in err
    assert not (tmp_path / "bad.hxe").exists()


def test_warnings_are_shown_and_the_build_goes_on(tmp_path):
    (tmp_path / "w.c").write_text("int main(void) {\n    int a = 0;\n    if (a = 3)\n"
                                  "        return a;\n    return 0;\n}\n")
    done = hsx("run", "w.c", cwd=tmp_path)
    assert done.returncode == 3
    assert "w.c:3:11: warning: using the result of an assignment as a condition" in done.stderr
    assert "    3 |     if (a = 3)" in done.stderr


def test_an_unsupported_construct_names_its_line_without_g(tmp_path):
    (tmp_path / "wide.c").write_text("int f(int a, int b) {\n    __int128 x = a;\n"
                                     "    return (int)(x * b);\n}\n"
                                     "int main(void) { return f(2, 3); }\n")
    done = hsx("cc", "-O0", "wide.c", cwd=tmp_path)
    assert done.returncode == 1
    assert done.stderr == "wide.c:2: values of type i128 are not supported\n"


@pytest.mark.parametrize("command, files", [
    ("cc", ["notes.txt"]), ("cc", ["ok.c", "notes.txt"]), ("cc", ["ok.cpp"]),
    ("run", ["notes.txt"]), ("run", ["ok.o"])])
def test_other_files_are_refused_by_name_before_anything_is_built(tmp_path, command, files):
    (tmp_path / "ok.c").write_text("int main(void) { return 0; }\n")
    for name in ("notes.txt", "ok.cpp", "ok.o"):
        (tmp_path / name).write_text("int main(void) { return 0; }\n")
    done = hsx(command, *files, cwd=tmp_path)
    assert done.returncode == 2
    assert f"hsx: {files[-1]}: not " in done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt", "ok.c", "ok.cpp", "ok.o"]
