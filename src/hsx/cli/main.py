"""`hsx`: one command with a subcommand per tool (DESIGN.md §7)."""
from __future__ import annotations

import importlib

import click

from hsx import __version__
from hsx.cli.errors import main as run_cli

# Each subcommand's module is imported only when that subcommand runs (or help lists
# them all): `hsx dap`, started by an editor for every debug session, should not pay for
# the compiler's, the shell's and the kernel's imports.
SUBCOMMANDS = {
    "asm": "hsx.cli.toolchain:asm_command",
    "link": "hsx.cli.toolchain:link_command",
    "disasm": "hsx.cli.toolchain:disasm_command",
    "run": "hsx.cli.run:run_command",
    "cc": "hsx.cli.cc:cc_command",
    "execd": "hsx.cli.execd:execd_command",
    "fs": "hsx.cli.fs:fs_command",
    "shell": "hsx.shell.cli:shell_command",
    "dbg": "hsx.cli.dbg:dbg_command",
    "dap": "hsx.cli.dap:dap_command",
    "board": "hsx.cli.board:board_command",
}


class LazyGroup(click.Group):
    """A group whose subcommands are named in `SUBCOMMANDS` and imported on first use."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(SUBCOMMANDS)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        target = SUBCOMMANDS.get(name)
        if target is None:
            return None
        module, attribute = target.split(":")
        return getattr(importlib.import_module(module), attribute)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
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
      hsx board run --listen pty         serve the C executive (the host board)
    """


def main() -> None:
    run_cli(cli, prog_name="hsx")
