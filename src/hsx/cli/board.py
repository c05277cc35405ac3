"""`hsx board run`: serve the C executive of a board on a link (docs/port.md, "The host
build"; the link is docs/wire.md's). Prints the URL a client connects to
(`hsx shell --connect URL`) once the board has answered a hello, and runs until Ctrl-C
(exit status 0), as `hsx execd` does."""
from __future__ import annotations


import click

from .errors import EXIT_FAILED, fail

VARIANT_NAMES = ("minimal", "development", "full")


@click.group("board")
def board_command() -> None:
    """Run the C executive of a board (today: the host build)."""


@board_command.command("run")
@click.option("--board", default="host", show_default=True,
              help="Which board: host (the C executive as a native program).")
@click.option("--listen", default="socket://127.0.0.1:0", show_default=True, metavar="URL",
              help="Where to serve the framed protocol: socket://HOST:PORT (PORT 0 picks a "
                   "free one) or pty (a pseudo-terminal, as a board's serial port).")
@click.option("--variant", default="development", show_default=True,
              type=click.Choice(VARIANT_NAMES),
              help="What the executive offers (docs/port.md, \"Variants\").")
def run_command(board: str, listen: str, variant: str) -> None:
    """Start a board's executive, print the URL it listens on, run until interrupted."""
    from hsx.board.serve import BoardError, start
    try:
        served = start(board, listen, variant)
    except BoardError as error:
        fail(error.what, error.why, error.hint)
    click.echo(served.url)
    click.echo(f"hsx board: the {board} board ({variant}) serves {served.url}; "
               "Ctrl-C stops it", err=True)
    try:
        status = served.process.wait()
    except KeyboardInterrupt:
        served.stop()
        return
    fail(f"the {board} board", f"its executive stopped (exit status {status})",
         served.diagnostics() or None, EXIT_FAILED)
