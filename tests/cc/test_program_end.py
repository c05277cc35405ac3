"""How a C program starts (main's arguments) and ends when it does not return from main:
a failed assert (glibc's message on stderr, then abort), abort, raise with the default
action, exit with atexit handlers and unflushed streams."""
from __future__ import annotations

import io

from hsx.vm import Machine, StandaloneSvc, StopReason


def _end(tmp_path, body: str, opt: int = 2):
    """(stop reason, status or BRK code, stdout, stderr) of a program."""
    from hsx.toolchain.cc.driver import Options, build_c
    path = tmp_path / "end.c"
    path.write_text("#include <assert.h>\n#include <signal.h>\n#include <stdio.h>\n"
                    "#include <stdlib.h>\n" + body)
    result, _ = build_c([str(path)], Options(opt=opt))
    out, err = io.BytesIO(), io.BytesIO()
    machine = Machine(StandaloneSvc(stdout=out, stderr=err))
    ctx = machine.create_context(result.image)
    stop = machine.run(ctx, 5_000_000)
    code = stop.status & 0xFF if stop.reason is StopReason.EXITED else stop.code
    return stop.reason, code, out.getvalue().decode(), err.getvalue().decode()


def test_a_failed_assert_reports_like_glibc_and_aborts(tmp_path):
    reason, _, out, err = _end(tmp_path, (
        "static int check(int x) {\n"
        "    printf(\"before\\n\");\n"
        "    assert(x > 3 && \"x is big\");\n"
        "    return x;\n"
        "}\n"
        "int main(void) { return check(2); }\n"))
    assert reason is StopReason.BRK
    assert out == "before\n"                       # stdout flushed before the stop
    assert err == f"{tmp_path / 'end.c'}:7: check: Assertion `x > 3 && \"x is big\"' failed.\n"


def test_ndebug_removes_asserts(tmp_path):
    reason, status, _, err = _end(tmp_path, "#undef assert\n#define NDEBUG\n"
                                            "#include <assert.h>\n"
                                            "int main(void) { assert(0); return 7; }\n")
    assert (reason, status, err) == (StopReason.EXITED, 7, "")


def test_raise_with_the_default_action_ends_the_task(tmp_path):
    reason, status, out, _ = _end(tmp_path, (
        "int main(void) { printf(\"pending\"); raise(SIGTERM); return 0; }\n"))
    assert (reason, status, out) == (StopReason.EXITED, 128 + 15, "pending")
    reason, _, _, _ = _end(tmp_path, "int main(void) { raise(SIGABRT); return 0; }\n")
    assert reason is StopReason.BRK


def test_exit_runs_atexit_handlers_in_reverse_and_flushes(tmp_path):
    reason, status, out, _ = _end(tmp_path, (
        "static void first(void) { printf(\"first\\n\"); }\n"
        "static void second(void) { printf(\"second \"); }\n"
        "static void inner(void) { exit(9); }\n"
        "int main(void) { atexit(first); atexit(second); printf(\"main \");"
        " inner(); return 0; }\n"))
    assert (reason, status, out) == (StopReason.EXITED, 9, "main second first\n")


def test_main_gets_no_arguments_and_an_argv_ending_in_null(tmp_path):
    reason, status, out, _ = _end(tmp_path, (
        "int main(int argc, char **argv) {\n"
        "    printf(\"%d %d\\n\", argc, argv != NULL && argv[argc] == NULL);\n"
        "    return 0;\n"
        "}\n"))
    assert (reason, status, out) == (StopReason.EXITED, 0, "0 1\n")
