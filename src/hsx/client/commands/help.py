"""Help text for the commands, as plain text (front ends add colour if they like)."""
from __future__ import annotations

from typing import Mapping

from .parse import Table
from .syntax import Command, UsageError

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
        lines += [""] + [f"  {('--' + a.name) if a.flag else a.name.upper():<14} "
                         f"{a.description}" for a in described]
    if command.takes_pid and not command.local:
        lines += ["", "PID may be left out for the current task (`use PID`)."]
    if command.confirm:
        lines += ["", "Asks for confirmation at the prompt; -y/--force skips it."]
    if command.aliases:
        lines += ["", "also: " + ", ".join(command.aliases)]
    if command.examples:
        lines += ["", "examples:"] + [f"  {example}" for example in command.examples]
    return "\n".join(lines)


def overview(table: Table, missing: Mapping[str, str] = NO_VARIANT) -> str:
    """`help`: every command by group, one line each; a command the executive lacks
    ends with the variant that has it."""
    width = max(len(c.name) for c in table.commands) + 2
    lines: list[str] = []
    for group, commands in table.groups().items():
        lines += ["", f"{group}:"]
        lines += [f"  {c.name:<{width}}{c.summary}" + _marked(c, missing) for c in commands]
    lines += ["", "Any other protocol command: NAME field=value ... (docs/protocol.md);",
              "a line starting with { is sent as a JSON request.",
              "`help CMD` shows a command's usage and examples."]
    return "\n".join(lines[1:])


def _marked(command: Command, missing: Mapping[str, str]) -> str:
    needed = needs(command, missing)
    return "" if needed is None else f" [{needed} variant]"


def topic(table: Table, words: str, missing: Mapping[str, str] = NO_VARIANT,
          variant: str | None = None) -> str:
    """`help WORDS`: the command they name (by any of its names)."""
    command, used = table.find(words.split())
    if command is None or used != len(words.split()):
        raise UsageError(f"no command {words!r} ('help' lists them)")
    return describe(command, missing, variant)
