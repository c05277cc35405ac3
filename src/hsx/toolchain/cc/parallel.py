"""Several C files compiled at once, one worker process per CPU.

The back end is Python, so one process compiles one file at a time; a program of many
files (Lua's 33, the C library's first build) waits for each in turn.  Each file is
independent until the link, so `compile_units` gives whole files -- clang and the back
end -- to forked workers and hands the results back in the files' order, as a serial
build would: the same units, the same warnings, and the first failing file's error
(files not started by then are not compiled).

Workers are forked only where that is safe and worth it: on Linux, from a process with
no other threads (a fork copies one thread of a program that may hold locks in the
others), for two files or more, with more than one job allowed.  Otherwise the files
are compiled here, one after the other.
"""
from __future__ import annotations

import os
import sys
import threading
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from multiprocessing import get_context
from typing import TYPE_CHECKING, Iterator, Sequence

from hsx.toolchain.diagnostics import Diagnostic, ToolchainError

from .frontend import ClangRun, Options

if TYPE_CHECKING:
    from .unit import CompiledUnit


def _cpus() -> int:
    try:
        return len(os.sched_getaffinity(0))     # the CPUs this process may use
    except AttributeError:
        return os.cpu_count() or 1


def jobs_for(options: Options, files: int) -> int:
    """How many files to compile at once: `options.jobs` (None: one per CPU), at most
    one per file, and 1 where forking is not safe."""
    if sys.platform != "linux" or threading.active_count() > 1:
        return 1
    return max(1, min(options.jobs or _cpus(), files))


def _compile(path: str, options: Options, split: bool) -> CompiledUnit:
    """One file, its clang started before the back end is imported (a worker's first
    file: clang works while the worker loads it)."""
    clang = ClangRun(path, options)
    from .unit import compile_c_file
    return compile_c_file(path, options, split=split, clang=clang)


def compile_units(paths: Sequence[str], options: Options,
                  split: bool = False) -> Iterator[CompiledUnit]:
    """`compile_c_file` of each of `paths`, yielded in their order."""
    jobs = jobs_for(options, len(paths))
    if jobs == 1:
        for path in paths:
            yield _compile(path, options, split)
        return
    pool = ProcessPoolExecutor(jobs, mp_context=get_context("fork"))
    try:
        pending: list[Future] = [pool.submit(_compile, path, options, split) for path in paths]
        for path, future in zip(paths, pending):
            try:
                unit = future.result()
            except BrokenProcessPool:
                raise ToolchainError([Diagnostic(
                    "a compiler worker process ended before this file's result came back "
                    "(killed, or out of memory?); `hsx cc -j 1` compiles one file at a "
                    "time", path)]) from None
            yield unit
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
