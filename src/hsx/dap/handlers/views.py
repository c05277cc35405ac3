"""hsx/tasks, hsx/mailboxes, hsx/values, hsx/timeline: custom requests for the VS Code
extension's views and commands (editors/vscode), each passed through to the executive."""
from __future__ import annotations

from typing import Any

from ..protocol import DapError
from ..requests import handles


@handles("hsx/tasks")
async def tasks(adapter, args: dict[str, Any]) -> dict[str, Any]:
    """Every task's `ps` row."""
    return {"tasks": await adapter.need_debuggee().tasks()}


@handles("hsx/mailboxes")
async def mailboxes(adapter, args: dict[str, Any]) -> dict[str, Any]:
    """`mailbox.snapshot`: every mailbox (readers, waiters, taps) and the pool statistics."""
    reply = await adapter.need_debuggee().request("mailbox.snapshot")
    return {"descriptors": reply["descriptors"], "stats": reply["stats"]}


@handles("hsx/values")
async def values(adapter, args: dict[str, Any]) -> dict[str, Any]:
    """The values (with their current readings) and commands the adapter's session may see."""
    debuggee = adapter.need_debuggee()
    return {"values": (await debuggee.request("val.list"))["values"],
            "commands": (await debuggee.request("cmd.list"))["commands"]}


TIMELINE_OPS = ("start", "stop", "status", "export")


@handles("hsx/timeline")
async def timeline(adapter, args: dict[str, Any]) -> dict[str, Any]:
    """The executive's timeline (the extension's Start/Stop Timeline Recording commands):
    `op` start, stop, status or export (with `path`, and `format` or `values`), passed
    to `timeline.<op>`; the reply's `timeline` comes back."""
    op = args.get("op", "status")
    if op not in TIMELINE_OPS:
        raise DapError(f"hsx/timeline: op must be one of {', '.join(TIMELINE_OPS)}, not {op!r}")
    fields = {key: args[key] for key in ("path", "format", "values", "size", "instructions")
              if key in args}
    return (await adapter.need_debuggee().request(f"timeline.{op}", **fields))["timeline"]
