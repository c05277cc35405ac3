"""Several C files compiled at once (hsx/toolchain/cc/parallel.py): the same units,
warnings and errors as one at a time, in the files' order."""
from __future__ import annotations

import os
import pickle
import subprocess
import sys
import threading
from dataclasses import replace

import pytest

from hsx.image.hxo import write_hxo
from hsx.toolchain.cc.driver import Options, compile_sources
from hsx.toolchain.cc import parallel
from hsx.toolchain.cc.parallel import jobs_for
from hsx.toolchain.diagnostics import Diagnostic, ToolchainError

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="workers are forked on Linux only")

FILES = {
    "a.c": "int twice(int x) { return 2 * x; }\n",
    "b.c": "int past_the_end(void) { int a[2] = {0}; return a[3]; }\n",   # a warning
    "c.c": "#include <stdio.h>\nint twice(int);\n"
           "int main(void) { printf(\"%d\\n\", twice(21)); return 0; }\n",
}
BROKEN = "int broken(void) { return nope; }\n"


def sources(tmp_path, files: dict[str, str]) -> list[str]:
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    return [str(tmp_path / name) for name in files]


def compiled(paths: list[str], jobs: int) -> list[tuple[str, bytes, list[str]]]:
    options = Options(opt=2, jobs=jobs)
    return [(u.mvasm, write_hxo(u.module), u.warnings) for u in compile_sources(paths, options)]


def test_at_once_gives_what_one_at_a_time_gives(tmp_path):
    paths = sources(tmp_path, FILES)
    assert jobs_for(Options(jobs=3), len(paths)) == 3        # (workers are forked here)
    serial, parallel = compiled(paths, 1), compiled(paths, 3)
    assert parallel == serial
    assert "past the end" in "".join(serial[1][2])        # b.c's warning, kept with b.c


def test_the_first_failing_file_is_the_error_with_its_diagnostics(tmp_path):
    paths = sources(tmp_path, {**FILES, "b.c": BROKEN})
    errors = []
    for jobs in (1, 3):
        with pytest.raises(ToolchainError) as failed:
            compiled(paths, jobs)
        errors.append(failed.value.diagnostics)
    assert errors[1] == errors[0]
    assert "b.c:1:" in str(errors[0][0]) and "nope" in str(errors[0][0])


def _dies_on_b(path, options, split):
    """A worker that ends (as one killed would) when it gets b.c."""
    if path.endswith("b.c"):
        os._exit(3)
    return _REAL_COMPILE(path, options, split)


_REAL_COMPILE = parallel._compile


def test_a_worker_that_dies_is_an_error_not_a_traceback(tmp_path, monkeypatch):
    paths = sources(tmp_path, FILES)
    monkeypatch.setattr(parallel, "_compile", _dies_on_b)
    with pytest.raises(ToolchainError) as failed:
        compiled(paths, 3)
    [diagnostic] = failed.value.diagnostics
    # the pool stops whole: the error is at the first file whose result is missing
    assert diagnostic.where in paths[:2] and "-j 1" in diagnostic.message


def test_a_toolchain_error_pickles_with_its_diagnostics():
    error = ToolchainError([Diagnostic("undeclared 'nope'", "b.c:1:27")])
    again = pickle.loads(pickle.dumps(error))
    assert again.diagnostics == error.diagnostics and str(again) == str(error)


def test_one_at_a_time_beside_other_threads_and_for_one_file():
    options = Options(jobs=4)
    assert jobs_for(options, 3) == 3 and jobs_for(options, 1) == 1
    assert jobs_for(replace(options, jobs=1), 3) == 1
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        assert jobs_for(options, 3) == 1          # forking beside a thread is not safe
    finally:
        stop.set()
        other.join()


def test_hsx_cc_jobs_builds_a_program_and_refuses_zero(tmp_path):
    paths = sources(tmp_path, {"a.c": FILES["a.c"], "c.c": FILES["c.c"]})
    image = tmp_path / "prog.hxe"
    built = subprocess.run([sys.executable, "-m", "hsx", "cc", "-j", "2", *paths, "-o",
                            str(image)], capture_output=True, text=True)
    assert built.returncode == 0, built.stderr
    ran = subprocess.run([sys.executable, "-m", "hsx", "run", str(image)],
                         capture_output=True, text=True)
    assert ran.stdout == "42\n"
    refused = subprocess.run([sys.executable, "-m", "hsx", "cc", "-j", "0", *paths],
                             capture_output=True, text=True)
    assert refused.returncode == 2 and "-j" in refused.stderr and "Traceback" not in refused.stderr
