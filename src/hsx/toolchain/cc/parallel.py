"""Several C files compiled at once, one worker process per CPU.

The back end is Python, so one process compiles one file at a time; a program of many
files (Lua's 32, the C library's first build) waits for each in turn.  Each file is
independent until the link, so `compile_units` gives whole files -- clang and the back
end -- to forked workers and hands the results back in the files' order, as a serial
build would: the same units, the same warnings, and the first failing file's error.

Workers are forked only where that is safe and worth it: on Linux, from a process with
no other threads (a fork copies one thread of a program that may hold locks in the
others), for two files or more, with more than one job allowed (`-j`, else
$HSX_CC_JOBS, else one per CPU).  Otherwise the files are compiled here, one after the
other.  Workers leave Ctrl-C to the parent and die with it; when the build stops early
(an error, Ctrl-C, a caller that stops reading), they are killed, not waited for.
"""
from __future__ import annotations

import ctypes
import os
import signal
import sys
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from multiprocessing import get_context
from typing import TYPE_CHECKING, Iterator, Sequence

from hsx.toolchain.diagnostics import Diagnostic, ToolchainError

from .frontend import ClangRun, Options

if TYPE_CHECKING:
    from .unit import CompiledUnit

ENV_JOBS = "HSX_CC_JOBS"
_PR_SET_PDEATHSIG = 1


def _cpus() -> int:
    try:
        return len(os.sched_getaffinity(0))     # the CPUs this process may use
    except AttributeError:
        return os.cpu_count() or 1


def _threads() -> int:
    """This process's threads, native ones included (Linux)."""
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("Threads:"):
                    return int(line.split()[1])
    except (OSError, ValueError):
        pass
    return 2                                    # unknown: assume it is not alone


def _wanted(options: Options) -> int:
    if options.jobs:
        return options.jobs
    try:
        return max(1, int(os.environ.get(ENV_JOBS, "")))
    except ValueError:
        return _cpus()


def jobs_for(options: Options, files: int) -> int:
    """How many files to compile at once: at most one per file, and 1 where forking
    is not safe."""
    if sys.platform != "linux" or files < 2:
        return 1
    wanted = min(_wanted(options), files)
    return wanted if wanted > 1 and _threads() == 1 else 1


def _worker_started() -> None:
    """In each worker: Ctrl-C is the parent's to handle, and the worker dies with the
    parent (SIGTERM or SIGKILL to it would otherwise leave workers blocked writing a
    result nobody reads, holding the caller's pipes open)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})    # (blocked at the fork)
    try:
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):
        pass
    if os.getppid() == 1:                       # the parent is gone already
        os._exit(1)


def _compile(path: str, options: Options, split: bool) -> CompiledUnit:
    """One file, its clang started before the back end is imported where it is not
    yet (clang works while the worker loads it)."""
    clang = ClangRun(path, options)
    from .unit import compile_c_file
    return compile_c_file(path, options, split=split, clang=clang)


def _died(path: str) -> ToolchainError:
    return ToolchainError([Diagnostic(
        "a compiler worker process ended before this file's result came back (killed, "
        f"or out of memory?); `hsx cc -j 1` (or {ENV_JOBS}=1) compiles one file at a "
        "time", path)])


def compile_units(paths: Sequence[str], options: Options,
                  split: bool = False) -> Iterator[CompiledUnit]:
    """`compile_c_file` of each of `paths`, yielded in their order."""
    jobs = jobs_for(options, len(paths))
    if jobs == 1:
        for path in paths:
            yield _compile(path, options, split)
        return
    pool = ProcessPoolExecutor(jobs, mp_context=get_context("fork"),
                               initializer=_worker_started)
    finished = False
    try:
        # Ctrl-C waits while the workers are forked (the pool starts them at the first
        # submit): a fork half done, or a worker not yet ignoring it, would print
        # tracebacks; it is delivered here once they are all running
        blocked = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            pending: list[Future] = [pool.submit(_compile, p, options, split) for p in paths]
        except BrokenProcessPool:
            raise _died(paths[0]) from None
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
        for path, future in zip(paths, pending):
            try:
                unit = future.result()
            except BrokenProcessPool:
                raise _died(path) from None
            yield unit
        finished = True
    finally:
        if not finished:                        # stopped early: nothing more is wanted
            for process in list(getattr(pool, "_processes", {}).values()):
                process.kill()
        pool.shutdown(wait=True, cancel_futures=True)
