"""`hsx`: one command with a subcommand per tool (DESIGN.md §7)."""
from __future__ import annotations

import click

from hsx import __version__
from hsx.cli.cc import cc_command
from hsx.cli.dap import dap_command
from hsx.cli.dbg import dbg_command
from hsx.cli.errors import main as run_cli
from hsx.cli.execd import execd_command
from hsx.cli.run import run_command
from hsx.cli.shell import shell_command
from hsx.cli.toolchain import asm_command, disasm_command, link_command


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="hsx")
def cli() -> None:
    """HSX: build, run and debug portable embedded applications.

    \b
    Typical use:
      hsx asm prog.mvasm -o prog.hxe     assemble (and link) MVASM
      hsx run prog.hxe                   run an image
      hsx disasm prog.hxe                list its code
      hsx dbg prog.c                     debug it, full screen
      hsx dap                            debug from an editor (DAP on stdio)
    """


for command in (asm_command, link_command, disasm_command, run_command, cc_command,
                execd_command, shell_command, dbg_command, dap_command):
    cli.add_command(command)


def main() -> None:
    run_cli(cli, prog_name="hsx")
