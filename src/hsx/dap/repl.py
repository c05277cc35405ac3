"""The debug console: C expressions, and the shell's commands.

A line is a C expression evaluated in the selected frame.  A line starting with `!` is
a command of `hsx shell` (`!ps`, `!bp list`, `!x/8xw counter`, or a raw protocol
request such as `!{"cmd": "info"}`); so is a line that is not a valid expression but
starts with a shell command's name (`ps`, `bt`, `mbox`...).  Commands default to the
debugged task; results are rendered as the shell shows them.
"""
from __future__ import annotations

import re
from typing import Any

from hsx.client import ProtocolError
from hsx.client.commands import RAW, UsageError, complete, help_text, parse, run_async
from hsx.client.render import Context, plain, render

from .protocol import DapError
from .variables import expression_of, expression_result

_WORD = re.compile(r"[A-Za-z_$][A-Za-z0-9_]*$")


async def evaluate_repl(adapter, text: str, pid: int | None, frame: int) -> dict[str, Any]:
    text = text.strip()
    if text.startswith("!"):
        return {"result": await run_command(adapter, text[1:].strip(), pid),
                "variablesReference": 0}
    debuggee = adapter.need_debuggee()
    try:
        result = await debuggee.client.evaluate(pid, text, frame)
    except ProtocolError as error:
        if error.code not in ("bad_expression", "no_symbols") or not _names_command(text):
            raise
        return {"result": await run_command(adapter, text, pid), "variablesReference": 0}
    return expression_result(adapter.handles, result, pid, frame, text)


def _names_command(text: str) -> bool:
    try:
        return parse(text).command is not RAW
    except UsageError:
        return True                          # a command, used wrongly: say how
    except ValueError:
        return False


async def run_command(adapter, line: str, pid: int | None) -> str:
    """Run a shell command line; its result as text."""
    if not line:
        return help_text()
    try:
        invocation = parse(line, default_pid=pid)
    except UsageError as error:
        raise DapError(str(error)) from None
    command = invocation.command
    if command.local:
        if command.name == "help":
            return help_text(" ".join(str(v) for v in invocation.values.values()))
        raise DapError(f"{command.name} is a command of the interactive shell; it has no "
                       "meaning in the debug console")
    if command.confirm and not invocation.force:
        raise DapError(f"{command.name} changes the target ({command.confirm}): add -y to "
                       "do it without asking")
    debuggee = adapter.need_debuggee()
    result = await run_async(debuggee.client, invocation)
    if invocation.json:
        return plain(render("json", result))
    context = Context(names=dict(debuggee.names), programs=dict(debuggee.programs),
                      symbol_files={p: f for p, f in debuggee.symbol_files.items() if f},
                      sources=debuggee.sources)
    return plain(render(command.view, result, context))


async def completions(adapter, text: str, cursor: int, pid: int | None,
                      frame: int) -> list[dict[str, Any]]:
    """What may complete `text[:cursor]`: a shell command's words after `!`, else the
    variables and registers of the frame (and command names for a first word)."""
    debuggee = adapter.need_debuggee()
    line = text[:cursor]
    stripped = line.lstrip()
    if stripped.startswith("!"):
        offset = len(line) - len(stripped) + 1
        await debuggee.completions.ready(pid)
        return [_item(adapter, c.text, offset + c.start, cursor, c.meta)
                for c in complete(line[offset:], debuggee.completions, pid)]
    word = _WORD.search(line)
    prefix = word.group(0) if word else ""
    start = cursor - len(prefix)
    found: dict[str, str] = {}
    if pid is not None:
        try:
            listing = await debuggee.client.frame_variables(pid, frame, "all")
        except ProtocolError:
            listing = {}
        for scope in ("arguments", "locals", "globals", "registers"):
            for record in listing.get(scope) or []:
                found.setdefault(expression_of(scope, record.get("name", "")),
                                 record.get("type", scope))
    if not line[:start].strip():                 # the first word: commands too
        for candidate in complete(prefix):
            found.setdefault(candidate.text, "command")
    return [_item(adapter, name, start, cursor, detail)
            for name, detail in sorted(found.items()) if name.startswith(prefix)]


def _item(adapter, text: str, start: int, cursor: int, detail: str) -> dict[str, Any]:
    return {"label": text, "start": start + adapter.column_base, "length": cursor - start,
            "detail": detail,
            "type": "variable" if detail not in ("command", "") else "text"}
