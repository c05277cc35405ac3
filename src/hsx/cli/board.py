"""`hsx board run`: serve the C executive of a board on a link (docs/port.md, "The host
build"; the link is docs/wire.md's). Prints the URL a client connects to
(`hsx shell --connect URL`) once the board has answered a hello, and runs until Ctrl-C
or SIGTERM (exit status 0), as `hsx execd` does."""
from __future__ import annotations

import signal

import click

from hsx.kernel.profiles import PROFILES

from .errors import EXIT_FAILED, fail

VARIANT_NAMES = tuple(PROFILES)         # the variants of docs/variants.md


@click.group("board")
def board_command() -> None:
    """Run the C executive of a board: the host build, or the mps2-an385 under QEMU."""


@board_command.command("build")
@click.option("--board", default="host", show_default=True,
              help="Which board: host (a native program) or mps2-an385 (Cortex-M3 firmware).")
@click.option("--variant", default="development", show_default=True,
              type=click.Choice(VARIANT_NAMES),
              help="What the executive offers (docs/port.md, \"Variants\").")
def build_command(board: str, variant: str) -> None:
    """Build a board's C executive (or find it built) and print its path: the host
    board's program, or the mps2-an385 firmware's ELF (what QEMU or a flash tool loads)."""
    from hsx.board.build import BOARDS, BuildError, find_or_build
    if board not in BOARDS:
        fail("--board", f"unknown board {board!r}", f"boards: {', '.join(BOARDS)}")
    try:
        click.echo(find_or_build(variant, board))
    except BuildError as error:
        fail(f"the {board} board", f"cannot build it: {error}",
             "hsx builds it with the zig compiler of the 'ziglang' package (pip install ziglang)",
             EXIT_FAILED)


@board_command.command("run")
@click.option("--board", default="host", show_default=True,
              help="Which board: host (the C executive as a native program) or mps2-an385 "
                   "(Cortex-M3 firmware under QEMU, qemu-system-arm).")
@click.option("--listen", default="socket://127.0.0.1:0", show_default=True, metavar="URL",
              help="Where to serve the framed protocol: socket://HOST:PORT (PORT 0 picks a "
                   "free one) or pty (a pseudo-terminal, as a board's serial port).")
@click.option("--variant", default="development", show_default=True,
              type=click.Choice(VARIANT_NAMES),
              help="What the executive offers (docs/port.md, \"Variants\").")
@click.option("--flash", default=None, metavar="FILE",
              help="Keep the board's persistent values in FILE across runs (without it the "
                   "mps2-an385's flash lasts for this run, the host board keeps none).")
@click.option("--fs", "fs_spec", default=None, metavar="SPEC",
              help="The guests' file system on the host board: host:DIR (a directory) or "
                   "fat:IMAGE (an SD card image, hsx fs mkfs; the board is then built "
                   "against ChaN's FatFs, fetched from PyPI once).")
def run_command(board: str, listen: str, variant: str, flash: str | None,
                fs_spec: str | None) -> None:
    """Start a board's executive, print the URL it listens on, run until interrupted."""
    from hsx.board.serve import BoardError, start
    try:
        served = start(board, listen, variant, flash, fs_spec)
    except BoardError as error:
        fail(error.what, error.why, error.hint)
    try:                    # from here on Ctrl-C or SIGTERM stops the board cleanly (status 0)
        signal.signal(signal.SIGTERM, _interrupt)
        click.echo(served.url)
        click.echo(f"hsx board: the {board} board ({variant}) serves {served.url}; "
                   "Ctrl-C stops it", err=True)
        status = served.process.wait()
    except KeyboardInterrupt:
        served.stop()
        return
    said = served.diagnostics()
    served.stop()
    if status == 0:         # it was stopped (SIGINT or SIGTERM reached it first)
        return
    fail(f"the {board} board", f"its executive stopped (exit status {status})",
         said or None, EXIT_FAILED)


def _interrupt(signum: int, frame: object) -> None:
    """SIGTERM stops the board as Ctrl-C does: its executive or QEMU is stopped and what
    was made for it removed (Python's default would end this process alone)."""
    raise KeyboardInterrupt
