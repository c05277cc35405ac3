"""Help text for the commands, as plain text (front ends add colour if they like)."""
from __future__ import annotations

from .parse import Table
from .syntax import Arg, Command, UsageError


def describe(command: Command) -> str:
    """`help CMD`: usage, what it does, its arguments, other names, examples."""
    lines = [f"usage: {command.usage}", "", command.summary]
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


def overview(table: Table) -> str:
    """`help`: every command by group, one line each."""
    width = max(len(c.name) for c in table.commands) + 2
    lines: list[str] = []
    for group, commands in table.groups().items():
        lines += ["", f"{group}:"]
        lines += [f"  {c.name:<{width}}{c.summary}" for c in commands]
    lines += ["", "Any other protocol command: NAME field=value ... (docs/protocol.md);",
              "a line starting with { is sent as a JSON request.",
              "`help CMD` shows a command's usage and examples."]
    return "\n".join(lines[1:])


def topic(table: Table, words: str) -> str:
    """`help WORDS`: the command they name (by any of its names)."""
    command, used = table.find(words.split())
    if command is None or used != len(words.split()):
        raise UsageError(f"no command {words!r} ('help' lists them)")
    return describe(command)
