"""`hsx run FILE… [--max-steps N] [--stats] [--state-dir D] [--timeline F] [-O… -g -I… -D…]
[--stack-size N] [--memory N] [--env NAME=VALUE]… [-- ARG…]` (DESIGN.md §7).

What follows `--` is the programs' command line: each task gets argc/argv (argv[0] is
the file named) and the `--env` variables (docs/abi.md, "Program start").

Every FILE becomes a task under one in-process executive, so a single program gets the
same services (mailboxes, files, values, sleep) as under `hsx execd`.  Task output goes
to this process's stdout/stderr as it is written; stdin is fed, a chunk at a time, to
the tasks that read it.

Tasks see a sandbox directory of their own as their file system (`--root` chooses
another); the first time a task uses it, `hsx run` says where it is.  Problems are
reported the way every `hsx` command reports them (`errors`), never as a traceback.

Exit codes: the first task's exit status & 0xFF; 2 when a file cannot be loaded; 70 when
the first task faults, or when tasks are left stuck (deadlock, BRK with no debugger: a
task waiting for anything but a stdin read that stdin may still answer is stuck);
124 when --max-steps runs out (instructions, not time spent sleeping) and 130 on Ctrl-C,
both saying where each unfinished task was.  Faults of other tasks are reported and the
rest go on; a trap (BRK) in compiled C is named for what put it there (faults.py).
"""
from __future__ import annotations

import functools
import queue
import sys
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING

import click

from hsx.kernel.errors import KernelError
from hsx.kernel.executive import Kernel
from hsx.kernel.profiles import PROFILES
from hsx.kernel.runner import run_to_completion
from hsx.kernel.states import TaskState
from hsx.kernel.task import Task
from hsx.kernel.taskargs import TaskOptions, check_env

from . import faults
from .backends import backend_options, build_backends, choose_backends
from .cc import cc_options, compiler_options, print_warnings
from .engine import engine_option, resolve_engine
from .errors import (EXIT_GUEST, EXIT_INTERRUPTED, EXIT_MAX_STEPS, EXIT_USAGE, fail,
                     input_file, report)
from .sandbox import default_root
from .sizes import configured_profile, task_size_options
from .timeline import TimelineOutput, timeline_options

if TYPE_CHECKING:
    from hsx.image.model import HxeImage
    from hsx.image.sym import SymbolTable

# pid -> its symbol table, or the .sym to read it from when a report needs it
Symbols = dict[int, "SymbolTable | Path | None"]
EXIT_LOAD_ERROR = EXIT_USAGE
EXIT_FAULT = EXIT_GUEST
MAX_DIAGNOSTICS = 20


def _build(path: str, cflags: tuple) -> tuple[HxeImage, SymbolTable | Path | None]:
    """An image and its symbols from .hxe, or built from .mvasm or .c (with the compiler
    options `cflags`: see `cc_options`).  An .hxe's symbols are the path of the .sym
    beside it, read only when a report needs them (`_symbols`): most runs never do."""
    source = input_file(path, (".hxe", ".mvasm", ".c"), "an HXE image, MVASM or C",
                        "hsx run takes .hxe images and .mvasm or .c sources")
    suffix = source.suffix.lower()
    if suffix in (".mvasm", ".c"):
        return _build_source(path, source, cflags)
    from hsx.image.errors import ImageError
    from hsx.image.hxe import read_hxe_file
    try:
        image = read_hxe_file(source)
    except ImageError as exc:
        fail(path, f"not a valid HXE image ({exc})",
             "hsx run takes .hxe images and .mvasm or .c sources")
    except OSError as exc:
        fail(path, (exc.strerror or str(exc)).lower())
    sym = source.with_suffix(".sym")
    return image, (sym if sym.is_file() else None)


def _build_source(path: str, source: Path, cflags: tuple) -> tuple[HxeImage, SymbolTable]:
    from hsx.image.hxe import normalize_app_name
    from hsx.toolchain.diagnostics import ToolchainError
    try:
        if source.suffix.lower() == ".mvasm":
            from hsx.toolchain.build import assemble_file, link_objects
            return link_objects([assemble_file(source)],
                                app_name=normalize_app_name(source.stem))
        from hsx.toolchain.cc.driver import build_c
        result, units = build_c([path], cc_options(*cflags), normalize_app_name(source.stem))
        print_warnings(units)
        return result.image, result.symbols
    except ToolchainError as exc:
        lines = [str(d) for d in exc.diagnostics]
        for line in lines[:MAX_DIAGNOSTICS]:
            click.echo(line, err=True)
        more = f" ({len(lines)} problems)" if len(lines) > 1 else ""
        fail(path, f"the build failed{more}", "fix the problems above and run it again")
    except OSError as exc:
        fail(path, (exc.strerror or str(exc)).lower())


def _symbols(symbols: Symbols, pid: int) -> SymbolTable | None:
    """Task `pid`'s symbol table, reading its .sym the first time it is asked for (a
    broken .sym only costs the names)."""
    found = symbols.get(pid)
    if isinstance(found, Path):
        from hsx.image.sym import SymbolFileError, load_sym
        try:
            found = load_sym(found)
        except (SymbolFileError, OSError):
            found = None
        symbols[pid] = found
    return found


def _write(task: Task, fd: int, data: bytes) -> None:
    """Guest bytes straight to the process's stream (text already queued goes first)."""
    stream = sys.stdout if fd == 1 else sys.stderr
    buffer = getattr(stream, "buffer", None)
    stream.flush()
    if buffer is None:
        stream.write(data.decode("utf-8", "replace"))
        stream.flush()
    else:
        buffer.write(data)
        buffer.flush()


class _StdinPump:
    """Feeds this process's stdin to the tasks that read fd 0, from a thread, so a task
    waiting for input never stops the others.  It reads a chunk only when a task has asked
    for input (`Stdio.input_requested`), and gives it to that task, so input no task takes
    stays in the pipe, where the writer feels the back-pressure, instead of in memory.
    Once stdin has ended, every later read gets the end of input too (it returns 0)."""

    def __init__(self, kernel: Kernel) -> None:
        self.kernel = kernel
        self.started = False
        self.ended = False                          # (kernel thread) the end was delivered
        self.asks: queue.SimpleQueue[int] = queue.SimpleQueue()   # pids waiting, in order

    def __call__(self, task: Task) -> None:
        if self.ended:
            self.kernel.post(lambda pid=task.pid: self._deliver(pid, b""))
            return
        self.asks.put(task.pid)
        if self.started:
            return
        self.started = True
        self.kernel.input_sources += 1
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        source = getattr(sys.stdin, "buffer", None)
        while True:
            pid = self.asks.get()
            try:
                data = (source.read1(4096) if source is not None
                        else sys.stdin.read(4096).encode())
            except Exception:                       # closed or unreadable: no more input
                data = b""
            self.kernel.post(lambda pid=pid, data=data: self._deliver(pid, data))
            if not data:
                return

    def _deliver(self, pid: int, data: bytes) -> None:
        pids = [pid]
        if not data and not self.ended:
            self.ended = True
            self.kernel.input_sources -= 1
            while not self.asks.empty():            # asked before the end: they see it too
                pids.append(self.asks.get_nowait())
        for pid in pids:
            task = self.kernel.tasks.get(pid)
            if task is not None and not task.ended:
                self.kernel.post_stdin(pid, data)


class _WithGuestArguments(click.Command):
    """Everything after the first `--` is the guests' command line, not files."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if "--" in args:
            at = args.index("--")
            args, ctx.meta["guest_args"] = args[:at], tuple(args[at + 1:])
        return super().parse_args(ctx, args)


@click.command("run", cls=_WithGuestArguments)
@click.argument("files", nargs=-1, required=True, type=click.Path(),
                metavar="FILES... [-- ARGS...]")
@click.option("--max-steps", type=click.IntRange(min=1), default=None,
              help="Stop after N instructions in all (exit code 124).")
@click.option("--stats", is_flag=True, help="Print instructions=N seconds=S to stderr at the end.")
@click.option("--state-dir", type=click.Path(file_okay=False), default=None,
              help="Where persistent values are kept (default: not kept).")
@click.option("--root", type=click.Path(file_okay=False), default=None,
              help="Directory tasks see as their file system (default: a sandbox of hsx's "
                   "own, named on first use; never the current directory).")
@click.option("--profile", type=click.Choice(sorted(PROFILES)), default="development",
              show_default=True, help="Resource limits.")
@click.option("--quantum", type=click.IntRange(min=1), default=1, show_default=True,
              help="Instructions per turn when several tasks are ready (1 = strict "
                   "one-instruction interleaving; larger runs faster).")
@click.option("--env", "env", multiple=True, metavar="NAME=VALUE",
              help="An environment variable the tasks see with getenv (repeatable).")
@backend_options
@timeline_options
@compiler_options(default_opt="2")
@engine_option
@functools.partial(task_size_options, who="for each task, over what its image asks for")
def run_command(files: tuple[str, ...], max_steps: int | None, stats: bool,
                state_dir: str | None, root: str | None, profile: str, quantum: int,
                env: tuple[str, ...], opt: str, debug: bool, include_dirs: tuple[str, ...],
                defines: tuple[str, ...], engine: str | None, config_file: str | None,
                fs_spec: str | None, stack_size: int | None, memory: int | None,
                timeline_path: str | None, timeline_format: str | None,
                timeline_values: tuple[str, ...]) -> None:
    """Run FILE… (.hxe, or .mvasm / .c built on the fly) as tasks under the executive;
    `-- ARG…` passes the arguments to each task's main.

    Guest output goes to stdout/stderr; the exit code is the first task's exit status.
    A .c is compiled as `hsx cc` would with the same -O, -g, -I and -D (default -O2).
    """
    try:
        check_env(env)
    except ValueError as error:
        fail("--env", str(error), "write --env NAME=VALUE")
    guest_args = click.get_current_context().meta.get("guest_args", ())
    cflags = (opt, debug, include_dirs, defines)
    timeline = TimelineOutput(timeline_path, timeline_format, timeline_values)
    images = [(path, *_build(path, cflags)) for path in files]
    limits = configured_profile(profile, config_file)
    chosen = choose_backends(config_file, fs_spec, root)
    sandbox = None
    if "fs" not in chosen.tables:                   # nothing named one: hsx's own sandbox
        sandbox = default_root()
        chosen.tables["fs"] = {"backend": "host", "root": str(sandbox)}
    backends = build_backends(chosen, limits.max_handles_per_task)
    try:
        kernel = Kernel(profile=limits, fs=backends.fs,
                        store=backends.store, can_bus=backends.bus, state_dir=state_dir,
                        output=_write, engine=resolve_engine(engine))
    except OSError as exc:
        fail(str(state_dir), f"cannot keep values there: {(exc.strerror or str(exc)).lower()}",
             "choose another directory with --state-dir")
    if sandbox is not None:
        kernel.fs.on_first_use = lambda where: report(
            "guest files", f"in {where}", "choose another directory with --root")
    kernel.stdio.input_requested = _StdinPump(kernel)
    timeline.start(kernel)
    tasks = []
    symbols: Symbols = {}
    for path, image, table in images:
        options = TaskOptions(stack_size=stack_size, memory=memory, args=guest_args, env=env,
                              program=path)
        try:
            tasks.append(kernel.load(image, name=image.app_name or Path(path).stem,
                                     options=options))
            kernel.set_quantum(tasks[-1].pid, quantum)
            symbols[tasks[-1].pid] = table
        except KernelError as exc:
            kernel.shutdown()
            fail(path, exc.message)
    trapped: set[int] = set()
    sources = {task.pid: (path, cflags) for task, (path, _, _) in zip(tasks, images)}
    kernel.events.subscribe(lambda event: _report_fault(kernel, event, symbols, sources),
                            {"fault"})
    kernel.events.subscribe(lambda event: _report_trap(kernel, event, trapped, symbols,
                                                       sources), {"debug_break"})
    started = time.perf_counter()

    def running() -> list[str]:
        """Where each task still running is: a program that never ends shows where."""
        return [faults.running_at(task, _table_at(task, task.ctx.pc, symbols, sources))
                for task in tasks if not task.ended]
    try:
        outcome = run_to_completion(kernel, max_instructions=max_steps)
        stuck = faults.deadlock_report(kernel, tasks)       # before shutdown ends them
        left = running() if outcome.reason == "max_instructions" else []
    except KeyboardInterrupt:
        report("interrupted", None, "\n".join(running()) or None)
        sys.exit(EXIT_INTERRUPTED)
    finally:
        seconds = time.perf_counter() - started
        timeline.finish()
        kernel.shutdown()
    if stats:
        sys.stdout.flush()
        click.echo(f"instructions={outcome.instructions} seconds={seconds:.6f}", err=True)
    sys.exit(_exit_code(stuck, outcome.reason, outcome.instructions, tasks, trapped, left))


def _report_fault(kernel: Kernel, event, symbols: Symbols,
                  sources: dict[int, tuple[str, tuple]]) -> None:
    task = kernel.tasks[event.pid]
    table = _table_at(task, task.fault.pc, symbols, sources)
    first, *frames = faults.fault_report(task, table)
    report("fault", first, "\n".join(line.strip() for line in frames) or None)


def _table_at(task: Task, pc: int, symbols: Symbols,
              sources: dict[int, tuple[str, tuple]]) -> SymbolTable | None:
    """The task's symbols, with lines for `pc` where they can be had (a task another
    task spawned has no source here, only what its image carries)."""
    table, source = _symbols(symbols, task.pid), sources.get(task.pid)
    return table if source is None else _with_lines(task, pc, table, *source)


def _with_lines(task: Task, pc: int, table: SymbolTable | None, path: str,
                cflags: tuple) -> SymbolTable | None:
    """A .c built without -g has function names but no lines: for the report of what
    happened at `pc` it is built again with -g (linking only what is used and pairing
    instructions across lines, as the build without -g did), which compiles to the same
    code (checked) and knows the lines."""
    opt, debug, *rest = cflags
    if (table is None or debug or Path(path).suffix.lower() != ".c"
            or table.line_for(pc) is not None):
        return table
    try:
        from hsx.toolchain.cc.driver import build_c
        result, _ = build_c([path], cc_options(opt, True, *rest, gc_sections=True,
                                               keep_lines_apart=False),
                            task.image.app_name)
    except Exception:                     # no lines then; the names are still there
        return table
    return result.symbols if result.image.code == task.image.code else table


def _report_trap(kernel: Kernel, event, trapped: set[int],
                 symbols: Symbols,
                 sources: dict[int, tuple[str, tuple]]) -> None:
    """A BRK with no debugger attached is an unhandled trap: report it (in C, what put
    it there: undefined behaviour clang found, abort()), end the task."""
    if event.data.get("reason") != "brk" or event.pid in trapped:
        return
    trapped.add(event.pid)
    task = kernel.tasks[event.pid]
    pc = event.data["pc"]
    table = _table_at(task, pc, symbols, sources)
    what, frames, hint = faults.trap_report(task, table, pc, event.data.get("code", 0))
    report(f"{task.app_name} (pid {task.pid})", what,
           "\n".join([line.strip() for line in frames] + [hint]))
    kernel.post(lambda: kernel.kill(event.pid))


def _exit_code(stuck: list[str], reason: str, instructions: int, tasks: list[Task],
               trapped: set[int], running: list[str]) -> int:
    first = tasks[0]
    if reason == "max_instructions":
        report("--max-steps", f"stopped after {instructions} instructions", "\n".join(
            running + ["raise --max-steps, or leave it out to run until the tasks end"]))
        return EXIT_MAX_STEPS
    if reason in ("deadlock", "paused"):
        head, *waiting = stuck
        report(head.rstrip(":"), None, "\n".join(line.strip() for line in waiting) or None)
        return EXIT_FAULT
    if first.state is TaskState.FAULTED or first.pid in trapped:
        return EXIT_FAULT
    return (first.exit_status or 0) & 0xFF
