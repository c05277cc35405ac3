"""`hsx run FILE [--max-steps N] [--stats]`: run one program standalone (DESIGN.md §7).

Exit codes: the guest's exit status & 0xFF when it exits (SVC EXIT) or returns from its
entry frame; 2 for a file that cannot be loaded; 70 for a fault and for a BRK (a trap
with no debugger attached); 124 when --max-steps runs out.
"""
from __future__ import annotations

import os
import sys
import time

import click

from hsx.vm import LoadError, Machine, StopReason

EXIT_LOAD_ERROR = 2
EXIT_FAULT = 70
EXIT_MAX_STEPS = 124
_SLICE = 1 << 20          # instructions per run() call: keeps Ctrl-C responsive


def _fail(message: str, code: int) -> None:
    click.echo(f"hsx: {message}", err=True)
    sys.exit(code)


def _load_image(path: str):
    """HxeImage from an .hxe file, or built on the fly from .mvasm."""
    from hsx.image.errors import ImageError
    from hsx.toolchain.diagnostics import ToolchainError
    try:
        if path.lower().endswith(".mvasm"):
            from hsx.toolchain.build import build_file
            return build_file(path)
        from hsx.image.hxe import read_hxe_file
        return read_hxe_file(path)
    except (ImageError, ToolchainError, OSError) as exc:
        lines = (exc.strerror if isinstance(exc, OSError) and exc.strerror
                 else str(exc)).splitlines() or [type(exc).__name__]
        more = f" (and {len(lines) - 1} more)" if len(lines) > 1 else ""
        _fail(f"{path}: {lines[0]}{more}", EXIT_LOAD_ERROR)


@click.command("run")
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option("--max-steps", type=click.IntRange(min=1), default=None,
              help="Stop after N instructions (exit code 124).")
@click.option("--stats", is_flag=True, help="Print instructions=N seconds=S to stderr.")
def run_command(files: tuple[str, ...], max_steps: int | None, stats: bool) -> None:
    """Run FILE (.hxe, or .mvasm built on the fly) with the standalone SVCs.

    Guest output goes to stdout/stderr; the exit code is the guest's exit status.
    """
    if len(files) > 1:
        _fail("running several files together needs the executive (not available yet); "
              "pass one FILE", EXIT_LOAD_ERROR)
    path = files[0]
    image = _load_image(path)
    machine = Machine()
    try:
        ctx = machine.create_context(image)
    except LoadError as exc:
        _fail(f"{os.fspath(path)}: {exc}", EXIT_LOAD_ERROR)
    started = time.perf_counter()
    code = _run(machine, ctx, max_steps)
    if stats:
        seconds = time.perf_counter() - started
        sys.stdout.flush()
        click.echo(f"instructions={ctx.steps} seconds={seconds:.6f}", err=True)
    sys.exit(code)


def _run(machine: Machine, ctx, max_steps: int | None) -> int:
    while True:
        budget = _SLICE if max_steps is None else min(_SLICE, max_steps - ctx.steps)
        if budget <= 0:
            sys.stdout.flush()
            click.echo(f"hsx: stopped after {ctx.steps} instructions (--max-steps)", err=True)
            return EXIT_MAX_STEPS
        stop = machine.run(ctx, budget)
        if stop.reason in (StopReason.EXITED, StopReason.RETURNED):
            return stop.status & 0xFF
        if stop.reason is StopReason.FAULT:
            sys.stdout.flush()
            click.echo(f"hsx: fault: {stop.fault.describe()}", err=True)
            return EXIT_FAULT
        if stop.reason is StopReason.BRK:
            sys.stdout.flush()
            click.echo(f"hsx: BRK {stop.code} at pc 0x{stop.pc:04X} with no debugger attached",
                       err=True)
            return EXIT_FAULT
        # BUDGET (next slice), SVC (the standalone handler never asks), BREAKPOINT (none set)
