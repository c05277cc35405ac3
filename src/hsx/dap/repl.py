"""The debug console: C expressions, and the shell's commands.

A line is a C expression evaluated in the selected frame.  A line starting with `!` is
a command of `hsx shell` (`!ps`, `!bp list`, `!x/8xw counter`, or a raw protocol
request such as `!{"cmd": "info"}`); so is a line that is not a valid expression but
starts with a shell command's name (`ps`, `bt`, `mbox`...).  Commands default to the
debugged task; results are rendered as the shell shows them.
"""
from __future__ import annotations

from typing import Any

from hsx.client import ProtocolError
from hsx.client.commands import RAW, UsageError, help_text, parse, run_async
from hsx.client.render import Context, plain, render

from .protocol import DapError
from .variables import expression_result


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
                      symbol_files=dict(debuggee.symbol_files), sources=debuggee.sources)
    return plain(render(command.view, result, context))
