"""The C front end: the clang of the ziglang wheel by default, a system clang on request."""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

from cckit import compile_and_run

from hsx.toolchain.cc import frontend
from hsx.toolchain.diagnostics import ToolchainError


def test_default_is_the_bundled_clang(monkeypatch):
    monkeypatch.delenv(frontend.ENV_VAR, raising=False)
    cmd = frontend.clang_command()
    assert cmd[-1] == "clang" and os.path.basename(cmd[0]).startswith("zig")


def test_hsx_cc_needs_no_clang_on_path(tmp_path):
    """A machine with no clang anywhere on PATH still compiles and runs C."""
    src = tmp_path / "p.c"
    src.write_text('#include <stdio.h>\nint main(void) { printf("ok %d\\n", 6 * 7); return 3; }\n')
    env = {k: v for k, v in os.environ.items() if k != frontend.ENV_VAR}
    env["PATH"] = str(tmp_path)             # nothing runnable there
    run = subprocess.run([sys.executable, "-m", "hsx", "run", str(src)], env=env,
                         capture_output=True, text=True, timeout=300)
    assert (run.stdout, run.returncode) == ("ok 42\n", 3), run.stderr


@pytest.mark.parametrize("source", ["--clang", "env"])
def test_a_missing_system_clang_is_named(monkeypatch, source):
    monkeypatch.delenv(frontend.ENV_VAR, raising=False)
    if source == "env":
        monkeypatch.setenv(frontend.ENV_VAR, "/no/such/clang")
        explicit = None
    else:
        explicit = "/no/such/clang"
    with pytest.raises(ToolchainError) as info:
        frontend.clang_command(explicit)
    message = str(info.value)
    assert "/no/such/clang" in message and (source if source == "--clang" else "$HSX_CLANG") in message


def test_a_system_clang_is_used_when_asked(monkeypatch, tmp_path):
    """$HSX_CLANG names the executable that is run (here a script that records its call)."""
    log = tmp_path / "called"
    fake = tmp_path / "myclang"
    bundled = " ".join(frontend.clang_command())
    fake.write_text(f'#!/bin/sh\necho "$@" > {log}\nexec {bundled} "$@"\n')
    fake.chmod(0o755)
    monkeypatch.setenv(frontend.ENV_VAR, str(fake))
    from hsx.toolchain.cc.driver import Options, clang_ir
    src = tmp_path / "f.c"
    src.write_text("int f(int x) { return x + 1; }\n")
    ir = clang_ir(str(src), Options())
    assert "define" in ir and "f.c" in log.read_text()


def test_predefined_macros_say_what_the_implementation_offers(tmp_path):
    """C11's optional parts: threads are absent (__STDC_NO_THREADS__, no <threads.h>);
    complex numbers, VLAs and atomics are there; the environment is freestanding.
    __SIZEOF_INT128__ is not defined: code that looks for __int128 (yyjson's number
    parsing) takes its 64-bit path instead of failing to build."""
    out, status = compile_and_run(tmp_path, """
        #include <stdio.h>
        int main(void) {
        #ifdef __STDC_NO_THREADS__
            printf("no-threads ");
        #endif
        #ifdef __SIZEOF_INT128__
            __int128 wide = 1;
            printf("int128 %d ", (int)(wide << 64 >> 64));
        #endif
        #if defined(__STDC_NO_COMPLEX__) || defined(__STDC_NO_VLA__) || defined(__STDC_NO_ATOMICS__)
            printf("missing ");
        #endif
            printf("%d %d\\n", __STDC_HOSTED__, __STDC_VERSION__ >= 201112L);
            return 0;
        }
    """)
    assert (out, status) == ("no-threads 0 1\n", 0)


def test_every_clang_starts_before_the_back_end_loads(tmp_path):
    """`compile_sources` one file at a time starts each C file's clang first, so clang
    runs while Python imports the back end (issue 26: at -O2 that hides the import
    entirely); the units come back in order, MVASM sources assembled among them."""
    for name in ("a", "b"):
        (tmp_path / f"{name}.c").write_text(f"int {name}(void) {{ return 1; }}\n")
    (tmp_path / "m.mvasm").write_text(".export m\nm:  RET\n")
    script = textwrap.dedent("""
        import sys
        from hsx.toolchain.cc import driver, frontend
        started = []
        original = frontend.ClangRun.__init__
        def recording(self, path, options):
            started.append((path, "hsx.toolchain.cc.isel" in sys.modules))
            original(self, path, options)
        frontend.ClangRun.__init__ = recording
        units = driver.compile_sources(["a.c", "m.mvasm", "b.c"], frontend.Options(jobs=1))
        print(started, [unit.source for unit in units])
    """)
    run = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, capture_output=True,
                         text=True, timeout=300)
    assert run.stdout.strip() == \
        "[('a.c', False), ('b.c', False)] ['a.c', 'm.mvasm', 'b.c']", run.stderr
