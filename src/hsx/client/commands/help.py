"""Help text for the commands, as plain text (front ends add colour if they like)."""
from __future__ import annotations

import textwrap
from typing import Mapping

from .parse import Table
from .syntax import Arg, Command, UsageError


WIDTH = 80                       # the overview fits an 80-column terminal

NO_VARIANT: Mapping[str, str] = {}


def needs(command: Command, missing: Mapping[str, str]) -> str | None:
    """The variant a command needs when the executive's lacks it (`missing`: the
    executive's `info.variant_required`, feature -> the first variant that has it)."""
    if command.feature is None or command.feature not in missing:
        return None
    return missing[command.feature]


def describe(command: Command, missing: Mapping[str, str] = NO_VARIANT,
             variant: str | None = None) -> str:
    """`help CMD`: usage, what it does, its arguments, other names, examples; and the
    variant it needs when the executive (running `variant`) lacks it."""
    lines = [f"usage: {command.usage}", "", command.summary]
    needed = needs(command, missing)
    if needed is not None:
        which = "the full variant" if needed == "full" else "the development or full variant"
        lines += ["", f"Needs {which}; this executive runs {variant or 'another'}."]
    if command.details:
        lines += ["", command.details]
    described = [a for a in command.args if a.description]
    if described:
        lines += [""] + [f"  {_label(a):<18} {a.description}" for a in described]
    if command.takes_pid and not command.local:
        lines += ["", "PID may be left out for the current task (`use PID`)."]
    if command.confirm:
        lines += ["", "Asks for confirmation at the prompt; -y/--force skips it."]
    if command.aliases:
        lines += ["", "also: " + ", ".join(command.aliases)]
    if command.examples:
        lines += ["", "examples:"] + [f"  {example}" for example in command.examples]
    return "\n".join(lines)


def _label(arg: Arg) -> str:
    if arg.flag:
        return f"{arg.short}, --{arg.name}" if arg.short else f"--{arg.name}"
    if arg.option:
        return f"{arg.option} {arg.name.upper()}"
    return arg.name.upper()


def overview(table: Table, missing: Mapping[str, str] = NO_VARIANT) -> str:
    """`help`: the groups, each with its commands' names, on one screen (as gdb's); a
    command the executive lacks is marked with a `*`."""
    groups = table.groups()
    width = max(len(group) for group in groups) + 2
    lines = ["Commands by group: `help GROUP` lists a group's commands, `help CMD` shows one",
             "with its usage and examples, `help all` lists every command.", ""]
    for group, commands in groups.items():
        names = ", ".join(dict.fromkeys(c.name.split()[0] + ("*" if needs(c, missing) else "")
                                        for c in commands))
        lines += textwrap.wrap(f"{table.titles.get(group, group)}: {names}", WIDTH,
                               initial_indent=f"  {group:<{width}}",
                               subsequent_indent=" " * (width + 4))
    if missing and any(needs(c, missing) for c in table.commands):
        lines += ["", "* not in this executive's variant (`help CMD` says which has it)"]
    return "\n".join(lines + ["", *_FOOTER])


def every_command(table: Table, missing: Mapping[str, str] = NO_VARIANT) -> str:
    """`help all`: every command by group, one line each."""
    lines: list[str] = []
    for group, commands in table.groups().items():
        lines += ["", f"{table.titles.get(group, group)} (help {group}):"]
        lines += _summaries(commands, table, missing)
    return "\n".join(lines[1:] + ["", *_FOOTER])


def topic(table: Table, words: str, missing: Mapping[str, str] = NO_VARIANT,
          variant: str | None = None) -> str:
    """`help WORDS`: `all`, a group (by the word the overview shows), or the command
    they name (by any of its names)."""
    key = words.strip().lower()
    if key == "all":
        return every_command(table, missing)
    groups = table.groups()
    if key in groups:
        return "\n".join([f"{table.titles.get(key, key)}:",
                          *_summaries(groups[key], table, missing),
                          "", "`help CMD` shows a command's usage and examples."])
    command, used = table.find(words.split())
    if command is None or used != len(words.split()):
        raise UsageError(f"no command or group {words!r} ('help' lists them)")
    return describe(command, missing, variant)


_FOOTER = ["Any other protocol command: NAME field=value ... (docs/protocol.md);",
           "a line starting with { is sent as a JSON request."]


def _summaries(commands: list[Command], table: Table,
               missing: Mapping[str, str] = NO_VARIANT) -> list[str]:
    width = max(len(c.name) for c in table.commands) + 2
    return [f"  {c.name:<{width}}{c.summary}" + _marked(c, missing) for c in commands]


def _marked(command: Command, missing: Mapping[str, str]) -> str:
    needed = needs(command, missing)
    return "" if needed is None else f" [{needed} variant]"
