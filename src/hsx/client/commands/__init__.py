"""The command language of `hsx shell`, shared by every front end (UI-free).

    inv = parse("peek 1 counter 32")        # or parse("regs", default_pid=1)
    inv.command.name, inv.values            # 'peek', {'pid': 1, 'addr': 'counter', 'length': 32}
    result = run(client, inv)               # blocking Client; `await run_async(...)` for asyncio
    inv.command.view                        # how to show it: 'memory', 'tasks', ...

One table (table.py) holds every command with its arguments, help and examples; a
wrong argument raises `UsageError` with the command's usage.  `inv.command.local`
commands (help, use, events, wait, quit) are the front end's own; `inv.command.confirm`
says which ask first ("write": memory and registers, "danger": kill, shutdown) unless
`inv.force` (-y/--force).  Lines that name no command here are sent as protocol
commands (`NAME field=value ...`, or a JSON object).
"""
from __future__ import annotations

from typing import Mapping

from .complete import Candidate, Sources, complete, complete_path, line_task
from .help import NO_VARIANT, describe, overview, topic
from .parse import RAW, Invocation, Table, names_pid, value_words
from .parse import parse as _parse
from .plans import split_assignment, task_pid
from .run import drive_async, run, run_async
from .syntax import (REGISTERS, Arg, Command, Kind, Request, UsageError, parse_format,
                     split_words)
from .table import COMMANDS, TABLE


def parse(line: str, default_pid: int | None = None, table: Table = TABLE) -> Invocation:
    """The invocation a command line asks for (UsageError if it is wrong)."""
    return _parse(line, table, default_pid)


def help_text(words: str = "", missing: Mapping[str, str] = NO_VARIANT,
              variant: str | None = None) -> str:
    """`help` (the groups), `help GROUP`, `help all` or `help CMD`; commands the
    executive lacks (`missing`, its `info.variant_required`) are marked with the variant
    that has them."""
    return topic(TABLE, words, missing, variant) if words.strip() else overview(TABLE, missing)


__all__ = ["Arg", "COMMANDS", "Candidate", "Command", "Invocation", "Kind", "RAW", "REGISTERS", "Request",
           "Sources", "TABLE", "Table", "UsageError", "complete", "complete_path", "describe",
           "drive_async", "help_text", "line_task", "names_pid", "parse", "parse_format",
           "run", "run_async", "split_assignment", "split_words", "task_pid", "value_words"]
