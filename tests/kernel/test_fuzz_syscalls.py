"""Guest syscall fuzzing (issue 17): a guest calls every SVC with hostile arguments (bad
pointers, huge lengths, invalid fds, garbage paths) while the host's file system fails
underneath it, beside a canary task.  Whatever happens, the kernel never raises, the
canary keeps running, and the fuzzing task only ever ends (returned, faulted) or waits.

`hsx run` gets the same programs and must answer with its documented exit codes and no
Python traceback.

Bounded for CI: a fixed number of examples (HSX_FUZZ_EXAMPLES to change it), and
`hsx run` on virtual time, so a guest's long sleep cannot hang the suite."""
from __future__ import annotations

import errno
import functools
import io
import os
import tempfile
import time
from contextlib import ExitStack, redirect_stderr, redirect_stdout
from pathlib import Path
from unittest import mock

import pytest
from hypothesis import HealthCheck, example, given, settings, strategies as st
from mvasmkit import CANARY

from hsx.cli import errors
from hsx.cli.main import cli

from hsx.kernel.clock import VirtualClock
from hsx.kernel.executive import Kernel
from hsx.kernel.runner import run_to_completion
from hsx.kernel.states import TaskState
from hsx.toolchain.build import build_source

EXAMPLES = int(os.environ.get("HSX_FUZZ_EXAMPLES", "150"))
MODULES = list(range(16))            # every module number an SVC can name
KILL = (0x06, 0x05)
CANARY_PID = 1

WORDS = st.one_of(
    st.sampled_from([0, 1, 2, 3, 4, 8, 0xFF, 0x100, 0x3FFF, 0x4000, 0x7FFF, 0xBFF0, 0xFFFC,
                     0xFFFF, 0x10000, 0x7FFFFFFF, 0x80000000, 0xFFFFFFF0, 0xFFFFFFFF]),
    st.integers(0, 0xFFFFFFFF))
CALL = st.tuples(st.sampled_from(MODULES), st.integers(0, 0xFF), st.lists(WORDS, min_size=6,
                                                                        max_size=6))
HOST_ERRORS = st.sampled_from([None, errno.ENOSPC, errno.EACCES, errno.EIO, errno.ENAMETOOLONG,
                               errno.EROFS])
GARBAGE = st.binary(min_size=0, max_size=40)


def program(calls, garbage: bytes) -> str:
    lines = [".data", "junk: .byte " + ", ".join(str(b) for b in (garbage or b"\0")),
             "name: .asciz \"" + "f" * 300 + "\"", ".text", ".entry start", "start:"]
    for module, function, words in calls:
        if (module, function) == KILL and words[1] == CANARY_PID:
            words = [words[0], 0xDEAD, *words[2:]]        # the canary is not the target
        lines += [f"    LDI32 R{r}, {w}" for r, w in enumerate(words)]
        lines.append(f"    SVC MOD={module}, FN={function}")
    lines += ["    LDI R0, 0", "    SVC MOD=1, FN=0"]
    return "\n".join(lines) + "\n"


def failing_host(error: int):
    """Every host file operation the sandbox uses fails with `error`."""
    def refuse(*args, **kwargs):
        raise OSError(error, os.strerror(error))
    stack = ExitStack()
    for name in ("open", "touch", "mkdir", "unlink", "rmdir", "iterdir", "rename",
                 "write_bytes"):
        stack.enter_context(mock.patch.object(Path, name, refuse))
    return stack


@given(st.lists(CALL, min_size=1, max_size=6), GARBAGE, HOST_ERRORS)
@settings(max_examples=EXAMPLES, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
def test_hostile_syscalls_never_hurt_the_kernel_or_the_canary(calls, garbage, host_error):
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "fs"
        root.mkdir()
        (root / "file.txt").write_text("data")
        kernel = Kernel(clock=VirtualClock(1_000_000), fs_root=root)
        canary = kernel.load(build_source(CANARY, "canary.mvasm", app_name="canary"))
        assert canary.pid == CANARY_PID
        victim = kernel.load(build_source(program(calls, garbage), "fuzz.mvasm",
                                          app_name="fuzz"))
        with failing_host(host_error) if host_error else ExitStack():
            for _ in range(20):
                kernel.run(5_000)
                advance = getattr(kernel.clock, "advance_to", None)
                deadline = kernel.next_deadline()
                if advance is not None and deadline is not None:
                    advance(deadline)
        assert canary.state in (TaskState.READY, TaskState.SLEEPING), canary.state
        assert canary.instructions > 100
        assert victim.state in (TaskState.RETURNED, TaskState.FAULTED, TaskState.READY,
                                TaskState.SLEEPING, TaskState.WAITING_MBX, TaskState.KILLED,
                                TaskState.PAUSED), victim.state
        kernel.shutdown()


WAIT_LIMIT_S = 5.0                   # wall time `hsx run` may spend waiting in one example


def bounded_sleep(limit: float = WAIT_LIMIT_S):
    """The runner's sleep, failing the test once it has waited `limit` seconds in all:
    --max-steps counts instructions, not time a task spends sleeping or waiting."""
    waited = 0.0

    def sleep(seconds: float) -> None:
        nonlocal waited
        waited += seconds
        if waited > limit:
            pytest.fail(f"hsx run waited more than {limit} s (a sleep or a wait with a timeout)")
        time.sleep(seconds)
    return sleep


@given(st.lists(CALL, min_size=1, max_size=6), GARBAGE, HOST_ERRORS)
@example(calls=[(0x06, 0, [0xFFFFFFFF] * 6)], garbage=b"", host_error=None)   # sleep 49 days
@example(calls=[(0x05, 3, [0, 0, 0, 0, 0x7FFFFFFF, 0])], garbage=b"", host_error=None)
@settings(max_examples=max(EXAMPLES // 10, 5), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
def test_hsx_run_never_prints_a_traceback(calls, garbage, host_error):
    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp) / "fuzz.mvasm"
        source.write_text(program(calls, garbage))
        (Path(tmp) / "fs").mkdir()
        args = ["run", str(source), "--root", str(Path(tmp) / "fs"), "--max-steps", "200000"]
        stderr = io.StringIO()

        def run_failing(*args, **kwargs):     # built and loaded: now the host fails
            with failing_host(host_error) if host_error else ExitStack():
                return run_to_completion(*args, sleep=bounded_sleep(), **kwargs)
        # On virtual time, as in the test above: a random SLEEP_MS or RECV timeout may be
        # 49 days, which --max-steps (instructions) does not bound; virtual time jumps there.
        on_virtual_time = functools.partial(Kernel, clock=VirtualClock(1_000_000))
        with mock.patch("hsx.cli.run.run_to_completion", run_failing), \
                mock.patch("hsx.cli.run.Kernel", on_virtual_time), \
                redirect_stderr(stderr), redirect_stdout(io.StringIO()), \
                mock.patch("sys.stdin", io.StringIO("")), pytest.raises(SystemExit) as done:
            errors.main(cli, args=args, prog_name="hsx")
        assert "Traceback" not in stderr.getvalue() and "internal error" not in stderr.getvalue()
        assert isinstance(done.value.code, int) and 0 <= done.value.code <= 255
