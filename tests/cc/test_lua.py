"""A real 30,000-line C program: the Lua 5.4 interpreter (sources fetched at test time,
hsx.thirdparty) builds with `hsx cc` at -Os and -O2, and `hsx run` runs a script
with it, printing what Lua built natively prints (lua/script.expected): tables,
strings and patterns, closures, coroutines, errors, metatables, integer and float
arithmetic and formatting, utf8, the garbage collector, the script's `arg`."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from hsx import thirdparty

HERE = Path(__file__).parent / "lua"


@pytest.fixture(scope="module")
def lua_sources(tmp_path_factory) -> list[Path]:
    try:
        return thirdparty.sources(tmp_path_factory.mktemp("lua54"))
    except (thirdparty.Unavailable, OSError) as error:
        pytest.skip(f"the Lua 5.4 sources are not available here ({error}); set "
                    "HSX_LUA_SOURCES to a directory holding them to run this test")


def hsx(*args, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "hsx", *map(str, args)], cwd=cwd,
                          capture_output=True, text=True, timeout=1800)


@pytest.mark.parametrize("opt", ["s", "2"], ids=["Os", "O2"])
def test_lua_builds_and_runs_a_script(lua_sources, opt, tmp_path):
    assert sum(len(p.read_text(errors="replace").splitlines())
               for p in lua_sources[0].parent.glob("*.[ch]")) > 25_000
    image = tmp_path / "lua.hxe"
    built = hsx("cc", f"-O{opt}", *lua_sources, "-o", image)
    assert built.returncode == 0, built.stderr
    shutil.copy(HERE / "script.lua", tmp_path / "script.lua")
    run = hsx("run", "--root", tmp_path, "--memory", "4M", image, "--", "script.lua")
    assert run.returncode == 0, run.stderr
    assert run.stdout == (HERE / "script.expected").read_text()
    assert run.stderr == ""
