"""The C front end: the clang of the ziglang wheel by default, a system clang on request."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

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
