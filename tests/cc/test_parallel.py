"""Several C files compiled at once (hsx/toolchain/cc/parallel.py): the same units,
warnings and errors as one at a time, in the files' order."""
from __future__ import annotations

import faulthandler
import os
import pickle
import signal
import subprocess
import sys
import threading
import time
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


@pytest.fixture
def alone():
    """pytest's faulthandler timeout runs a watchdog thread, and workers are forked only
    from a process with no other thread: the test goes without the watchdog (once its
    thread has ended)."""
    faulthandler.cancel_dump_traceback_later()
    deadline = time.monotonic() + 30
    while parallel._threads() > 1:
        assert time.monotonic() < deadline, "another thread keeps running in this process"
        time.sleep(0.01)


def sources(tmp_path, files: dict[str, str]) -> list[str]:
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    return [str(tmp_path / name) for name in files]


def compiled(paths: list[str], jobs: int) -> list[tuple[str, bytes, list[str]]]:
    options = Options(opt=2, jobs=jobs)
    return [(u.mvasm, write_hxo(u.module), u.warnings) for u in compile_sources(paths, options)]


def test_at_once_gives_what_one_at_a_time_gives(tmp_path, alone):
    paths = sources(tmp_path, FILES)
    assert jobs_for(Options(jobs=3), len(paths)) == 3        # (workers are forked here)
    serial, parallel = compiled(paths, 1), compiled(paths, 3)
    assert parallel == serial
    assert "past the end" in "".join(serial[1][2])        # b.c's warning, kept with b.c


def test_the_first_failing_file_is_the_error_with_its_diagnostics(tmp_path, alone):
    # c.c fails too, and sooner (b.c waits for a big a.c): b.c's error is the one
    big = "".join(f"int f{k}(int x) {{ return x * {k} + f{k - 1}(x); }}\n" for k in range(1, 400))
    paths = sources(tmp_path, {"a.c": "int f0(int x) { return x; }\n" + big, "b.c": BROKEN,
                               "c.c": BROKEN.replace("nope", "nada")})
    assert jobs_for(Options(jobs=3), 3) == 3
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


def test_a_worker_that_dies_is_an_error_not_a_traceback(tmp_path, monkeypatch, alone):
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


def test_one_at_a_time_beside_other_threads_and_for_one_file(alone):
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


def many_files(tmp_path, n: int = 8) -> list[str]:
    """Files that take a while each (a few hundred functions)."""
    body = "".join(f"int g{k}(int x) {{ return x * {k} + (x >> {k % 7}); }}\n" for k in range(300))
    return sources(tmp_path, {f"m{k}.c": body.replace("int g", f"int m{k}_g") for k in range(n)})


def compiling(paths: list[str], tmp_path) -> subprocess.Popen:
    """`hsx cc -j 2` of `paths` in a session of its own, started once both workers are."""
    process = subprocess.Popen([sys.executable, "-m", "hsx", "cc", "-j", "2", "-O2", *paths,
                                "-o", str(tmp_path / "out.hxe")], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, start_new_session=True)
    deadline = time.monotonic() + 60
    while len(children(process.pid)) < 2:
        assert process.poll() is None and time.monotonic() < deadline, "no workers started"
        time.sleep(0.05)
    return process


def children(pid: int) -> list[int]:
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as listing:
            return [int(p) for p in listing.read().split()]
    except OSError:
        return []


def gone(pids: list[int], seconds: float = 30) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not any(os.path.exists(f"/proc/{p}") and _alive(p) for p in pids):
            return True
        time.sleep(0.05)
    return False


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().split(")")[-1].split()[0] != "Z"
    except OSError:
        return False


def test_workers_die_with_the_compiler(tmp_path):
    process = compiling(many_files(tmp_path), tmp_path)
    workers = [p for p in children(process.pid)]
    process.send_signal(signal.SIGTERM)             # the parent alone, as `timeout` does
    process.communicate(timeout=60)
    assert gone(workers), "workers outlived the compiler"


def test_ctrl_c_stops_the_build_without_a_traceback(tmp_path):
    process = compiling(many_files(tmp_path), tmp_path)
    workers = children(process.pid)
    os.killpg(process.pid, signal.SIGINT)           # the terminal's Ctrl-C: the whole group
    _, err = process.communicate(timeout=60)
    assert process.returncode == 130 and "Traceback" not in err, err
    assert gone(workers)
