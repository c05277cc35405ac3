"""hsx/tasks, hsx/mailboxes, hsx/values: custom requests for the VS Code extension's views
of the executive (editors/vscode), each the executive's own listing passed through."""
from __future__ import annotations

from typing import Any

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
