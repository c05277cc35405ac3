"""The debug console: C expressions and assignments, and the shell's commands.

A line is a C expression evaluated in the selected frame; an assignment (`stock[1].qty
= 7`, `count += 2`) stores into a C lvalue through the executive's `set`, as the
Variables view does.  A line starting with `!` is a command of `hsx shell` (`!ps`,
`!bp list`, `!x/8xw counter`, or a raw protocol request such as `!{"cmd": "info"}`);
so is a line that is not a valid expression but starts with a shell command's name
(`ps`, `bt`, `mbox`...).  Commands default to the debugged task; results are rendered
as the shell shows them.

Completion offers the members of a struct after `.` and `->`, and otherwise the
frame's variables and registers, the program's functions, and command names.
"""
from __future__ import annotations

import re
from typing import Any

from hsx.client import ProtocolError
from hsx.client.commands import (TABLE, UsageError, complete, help_text, parse, run_async,
                                 split_assignment, split_words)
from hsx.client.render import Context, plain, render

from .protocol import DapError
from .variables import expression_of, expression_result

_WORD = re.compile(r"[A-Za-z_$][A-Za-z0-9_]*$")
_MEMBER = re.compile(r"[A-Za-z_]\w*")


async def evaluate_repl(adapter, text: str, pid: int | None, frame: int) -> dict[str, Any]:
    text = text.strip()
    if text.startswith("!"):
        return {"result": await run_command(adapter, text[1:].strip(), pid),
                "variablesReference": 0}
    debuggee = adapter.need_debuggee()
    lvalue, value = split_assignment(text)
    try:
        if value:
            result = await debuggee.client.set_variable(pid, lvalue, value, frame)
        else:
            result = await debuggee.client.evaluate(pid, text, frame)
    except ProtocolError as error:
        if error.code not in ("bad_expression", "no_symbols") or not _names_command(text):
            raise
        return {"result": await run_command(adapter, text, pid), "variablesReference": 0}
    return expression_result(adapter.handles, result, pid, frame, lvalue if value else text)


def _names_command(text: str) -> bool:
    """Does `text` start with a shell command's name (`bt`, `ps 3`)?  A line that is not
    C is then run as that command (and one used wrongly gets its usage).  Anything else
    stays C, and its error is the expression's: `count + 1 = 3` is no command."""
    try:
        words = [word.text for word in split_words(text)]
    except (UsageError, ValueError):
        return False
    return TABLE.find(words)[0] is not None


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
    """What may complete `text[:cursor]`: a shell command's words after `!`; a struct's
    members after `.` or `->`; else the frame's variables and registers, the program's
    functions (and command names for a first word)."""
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
    if pid is None or (line.endswith(">") and not line.endswith("->")):
        return []                                # `>` typed as a comparison
    member_of = _member_base(line[:start])
    if member_of is not None:
        found = await _members(debuggee.client, pid, frame, *member_of)
        return [_item(adapter, name, start, cursor, detail, "field")
                for name, detail in sorted(found.items()) if name.startswith(prefix)]
    found = await _names(debuggee, pid, frame)
    if not line[:start].strip():                 # the first word: commands too
        for candidate in complete(prefix):
            found.setdefault(candidate.text, "command")
    return [_item(adapter, name, start, cursor, detail)
            for name, detail in sorted(found.items()) if name.startswith(prefix)]


async def _names(debuggee, pid: int, frame: int) -> dict[str, str]:
    """The names an expression in `frame` can use: variables and registers (with their
    types), and the program's functions."""
    found: dict[str, str] = {}
    try:
        listing = await debuggee.client.frame_variables(pid, frame, "all")
    except ProtocolError:
        listing = {}
    for scope in ("arguments", "locals", "globals", "registers"):
        for record in listing.get(scope) or []:
            found.setdefault(expression_of(scope, record.get("name", "")),
                             record.get("type", scope))
    await debuggee.completions.ready(pid)
    for name, kind in debuggee.completions.items("code", pid):
        if kind == "function":
            found.setdefault(name, "function")
    return found


def _member_base(head: str) -> tuple[str, bool] | None:
    """When `head` (the text before the word being completed) ends in `.` or `->`: the
    expression whose members complete there, and whether it was `->` (`stock[1].` ->
    ("stock[1]", False); `n * it->` -> ("it", True)).  Postfix operators bind tighter
    than any other, so the expression is the postfix chain just before."""
    head = head.rstrip()
    if head.endswith("->"):
        arrow, head = True, head[:-2].rstrip()
    elif head.endswith("."):
        arrow, head = False, head[:-1].rstrip()
    else:
        return None
    start, depth = len(head), 0
    while start > 0:
        char = head[start - 1]
        if char in ")]":
            depth += 1
        elif char in "([":
            if depth == 0:
                break
            depth -= 1
        elif depth == 0 and head[max(0, start - 2):start] == "->":
            start -= 1                            # the '-' of a '->' in the chain
        elif depth == 0 and not (char.isalnum() or char in "_$."):
            break
        start -= 1
    base = head[start:]
    return (base, arrow) if base else None


async def _members(client, pid: int, frame: int, base: str, arrow: bool) -> dict[str, str]:
    """The members (name -> type) of the struct or union `base` (`*base` after `->`)
    names; none when it names anything else or nothing."""
    try:
        value = await client.evaluate(pid, f"*({base})" if arrow else base, frame)
        if not value.get("ref") or not value.get("children"):
            return {}
        listing = await client.expand(value["ref"], 0, value["children"])
    except ProtocolError:
        return {}
    return {child["name"]: child.get("type", "") for child in listing.get("variables", [])
            if _MEMBER.fullmatch(child.get("name", ""))}   # not an element ([0]) or *p


def _item(adapter, text: str, start: int, cursor: int, detail: str,
          kind: str | None = None) -> dict[str, Any]:
    if kind is None:
        kind = {"command": "text", "": "text", "function": "function"}.get(detail, "variable")
    return {"label": text, "start": start + adapter.column_base, "length": cursor - start,
            "detail": detail, "type": kind}
