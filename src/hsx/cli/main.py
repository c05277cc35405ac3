"""`hsx`: one command with a subcommand per tool (DESIGN.md §7)."""
from __future__ import annotations

import importlib

import click

from hsx import __version__
from hsx.cli.errors import main as run_cli

# Each subcommand's module is imported only when that subcommand runs: `hsx dap`,
# started by an editor for every debug session, should not pay for the compiler's, the
# shell's and the kernel's imports, nor `hsx --help` for all of them (it lists the
# summaries below; each command shows its own as `short_help` too, so they cannot differ).
SUBCOMMANDS = {
    "asm": ("hsx.cli.toolchain:asm_command",
            "Assemble MVASM to an object (.hxo) or a linked image (.hxe)."),
    "link": ("hsx.cli.toolchain:link_command",
             "Link .hxo objects into an .hxe image and its .sym file."),
    "disasm": ("hsx.cli.toolchain:disasm_command",
               "List an .hxe image: addresses, words, instructions, symbols."),
    "run": ("hsx.cli.run:run_command",
            "Run programs (.hxe, .mvasm, .c) as tasks under the executive."),
    "cc": ("hsx.cli.cc:cc_command",
           "Compile C files (and MVASM linked with them) to an HSX image."),
    "execd": ("hsx.cli.execd:execd_command",
              "Run the executive: tasks under one kernel, served over TCP."),
    "fs": ("hsx.cli.fs:fs_command",
           "Make, list and copy files on SD card images; files over CAN."),
    "shell": ("hsx.shell.cli:shell_command",
              "Talk to a running executive: a prompt, a command or a script."),
    "dbg": ("hsx.cli.dbg:dbg_command",
            "Debug a program or a running task, full screen."),
    "dap": ("hsx.cli.dap:dap_command",
            "Debug from an editor: a DAP server on stdio (or --port)."),
}


class LazyGroup(click.Group):
    """A group whose subcommands are named in `SUBCOMMANDS` and imported on first use."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(SUBCOMMANDS)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        entry = SUBCOMMANDS.get(name)
        if entry is None:
            return None
        target, summary = entry
        module, attribute = target.split(":")
        command = getattr(importlib.import_module(module), attribute)
        command.short_help = summary
        return command

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The list of subcommands from the table, importing none of them."""
        with formatter.section("Commands"):
            formatter.write_dl([(name, SUBCOMMANDS[name][1]) for name in self.list_commands(ctx)])


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
    """


def main() -> None:
    run_cli(cli, prog_name="hsx")
