"""`hsx`: one command with a subcommand per tool (DESIGN.md §7)."""
from __future__ import annotations

import click

from hsx import __version__


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="hsx")
def cli() -> None:
    """HSX: build, run and debug portable embedded applications.

    \b
    Typical use:
      hsx asm prog.mvasm -o prog.hxe     assemble (and link) MVASM
      hsx run prog.hxe                   run an image
      hsx disasm prog.hxe                list its code
    """


def main() -> None:
    cli(prog_name="hsx")
