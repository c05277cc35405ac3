"""`hsx run FILE… [--max-steps N] [--stats] [--state-dir D]` (DESIGN.md §7).

Every FILE becomes a task under one in-process executive, so a single program gets the
same services (mailboxes, files, values, sleep) as under `hsx execd`.  Task output goes
to this process's stdout/stderr as it is written; stdin is fed to the first task that
reads it.

Exit codes: the first task's exit status & 0xFF; 2 when a file cannot be loaded; 70 when
the first task faults, or when tasks are left stuck (deadlock, BRK with no debugger);
124 when --max-steps runs out.  Faults of other tasks are reported and the rest go on.
"""
from __future__ import annotations

import sys
import threading
import time
from pathlib import Path

import click

from hsx.image.model import HxeImage
from hsx.kernel.errors import KernelError
from hsx.kernel.executive import Kernel
from hsx.kernel.profiles import PROFILES, get_profile
from hsx.kernel.runner import run_to_completion
from hsx.kernel.states import TaskState
from hsx.kernel.task import Task

from .engine import engine_option, resolve_engine

EXIT_LOAD_ERROR = 2
EXIT_FAULT = 70
EXIT_MAX_STEPS = 124


def _fail(message: str, code: int) -> None:
    sys.stdout.flush()
    click.echo(f"hsx: {message}", err=True)
    sys.exit(code)


def _build(path: str) -> HxeImage:
    """An image from .hxe, or built on the fly from .mvasm or .c."""
    from hsx.image.errors import ImageError
    from hsx.image.hxe import read_hxe_file
    from hsx.toolchain.diagnostics import ToolchainError
    suffix = Path(path).suffix.lower()
    if not Path(path).is_file():
        _fail(f"{path}: no such file", EXIT_LOAD_ERROR)
    try:
        if suffix == ".mvasm":
            from hsx.toolchain.build import build_file
            return build_file(path)
        if suffix == ".c":
            from hsx.toolchain.cc import build_c_file
            return build_c_file(path)
        return read_hxe_file(path)
    except (ImageError, ToolchainError, OSError) as exc:
        lines = (exc.strerror if isinstance(exc, OSError) and exc.strerror
                 else str(exc)).splitlines() or [type(exc).__name__]
        more = f" (and {len(lines) - 1} more)" if len(lines) > 1 else ""
        _fail(f"{path}: {lines[0]}{more}", EXIT_LOAD_ERROR)


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
    """Feeds this process's stdin to the first task that reads fd 0, from a thread, so a
    task waiting for input never stops the others."""

    def __init__(self, kernel: Kernel) -> None:
        self.kernel = kernel
        self.started = False

    def __call__(self, task: Task) -> None:
        if self.started:
            return
        self.started = True
        self.kernel.input_sources += 1
        threading.Thread(target=self._pump, args=(task.pid,), daemon=True).start()

    def _pump(self, pid: int) -> None:
        source = getattr(sys.stdin, "buffer", None)
        while True:
            data = source.read1(4096) if source is not None else sys.stdin.read(4096).encode()
            self.kernel.post(lambda data=data: self._deliver(pid, data))
            if not data:
                return

    def _deliver(self, pid: int, data: bytes) -> None:
        if not data:
            self.kernel.input_sources -= 1
        task = self.kernel.tasks.get(pid)
        if task is not None and not task.ended:
            self.kernel.post_stdin(pid, data)


@click.command("run")
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option("--max-steps", type=click.IntRange(min=1), default=None,
              help="Stop after N instructions in all (exit code 124).")
@click.option("--stats", is_flag=True, help="Print instructions=N seconds=S to stderr at the end.")
@click.option("--state-dir", type=click.Path(file_okay=False), default=None,
              help="Where persistent values are kept (default: not kept).")
@click.option("--root", type=click.Path(file_okay=False), default=".",
              show_default=True, help="Directory tasks see as their file system.")
@click.option("--profile", type=click.Choice(sorted(PROFILES)), default="development",
              show_default=True, help="Resource limits.")
@click.option("--quantum", type=click.IntRange(min=1), default=1, show_default=True,
              help="Instructions per turn when several tasks are ready (1 = strict "
                   "one-instruction interleaving; larger runs faster).")
@engine_option
def run_command(files: tuple[str, ...], max_steps: int | None, stats: bool,
                state_dir: str | None, root: str, profile: str, quantum: int,
                engine: str | None) -> None:
    """Run FILE… (.hxe, or .mvasm / .c built on the fly) as tasks under the executive.

    Guest output goes to stdout/stderr; the exit code is the first task's exit status.
    """
    images = [(path, _build(path)) for path in files]
    kernel = Kernel(profile=get_profile(profile), fs_root=root, state_dir=state_dir,
                    output=_write, engine=resolve_engine(engine))
    kernel.stdio.input_requested = _StdinPump(kernel)
    tasks = []
    for path, image in images:
        try:
            tasks.append(kernel.load(image, name=image.app_name or Path(path).stem))
            kernel.set_quantum(tasks[-1].pid, quantum)
        except KernelError as exc:
            kernel.shutdown()
            _fail(f"{path}: {exc}", EXIT_LOAD_ERROR)
    trapped: set[int] = set()
    kernel.events.subscribe(lambda event: _report_fault(kernel, event), {"fault"})
    kernel.events.subscribe(lambda event: _report_trap(kernel, event, trapped), {"debug_break"})
    started = time.perf_counter()
    try:
        outcome = run_to_completion(kernel, max_instructions=max_steps)
    finally:
        seconds = time.perf_counter() - started
        kernel.shutdown()
    if stats:
        sys.stdout.flush()
        click.echo(f"instructions={outcome.instructions} seconds={seconds:.6f}", err=True)
    sys.exit(_exit_code(outcome.reason, outcome.instructions, tasks, trapped))


def _report_fault(kernel: Kernel, event) -> None:
    task = kernel.tasks[event.pid]
    sys.stdout.flush()
    click.echo(f"hsx: fault: {task.fault.describe()} [{task.app_name}, pid {task.pid}]", err=True)


def _report_trap(kernel: Kernel, event, trapped: set[int]) -> None:
    """A BRK with no debugger attached is an unhandled trap: report it, end the task."""
    if event.data.get("reason") != "brk" or event.pid in trapped:
        return
    trapped.add(event.pid)
    task = kernel.tasks[event.pid]
    sys.stdout.flush()
    click.echo(f"hsx: BRK {event.data.get('code', 0)} at pc 0x{event.data['pc']:04X} with no "
               f"debugger attached [{task.app_name}, pid {task.pid}]", err=True)
    kernel.post(lambda: kernel.kill(event.pid))


def _exit_code(reason: str, instructions: int, tasks: list[Task], trapped: set[int]) -> int:
    first = tasks[0]
    if reason == "max_instructions":
        click.echo(f"hsx: stopped after {instructions} instructions (--max-steps)", err=True)
        return EXIT_MAX_STEPS
    if reason in ("deadlock", "paused"):
        stuck = [t for t in tasks if not t.ended]
        what = ", ".join(f"{t.app_name} ({t.state.value})" for t in stuck)
        why = "stopped at a BRK with no debugger" if reason == "paused" else "waiting for ever"
        click.echo(f"hsx: {why}: {what}", err=True)
        return EXIT_FAULT
    if first.state is TaskState.FAULTED or first.pid in trapped:
        return EXIT_FAULT
    return (first.exit_status or 0) & 0xFF
