"""gotoTargets, goto: VS Code's "Jump to Cursor", the executive's `jump` (gdb's).

The task's PC moves to the first instruction of a source line and nothing runs; the
executive keeps the jump inside the function the task is stopped in, whose frame it is.
"""
from __future__ import annotations

from typing import Any

from ..protocol import DapError, object_arg
from ..requests import handles
from .running import thread_of

PID_SHIFT = 32               # a target's id: the task's PID above its code address


@handles("gotoTargets")
async def goto_targets(adapter, args: dict[str, Any]) -> dict[str, Any]:
    debuggee = adapter.need_debuggee()
    path = object_arg(args, "source").get("path")
    line = args.get("line")
    if not isinstance(path, str) or not path or isinstance(line, bool) or not isinstance(line, int):
        raise DapError("gotoTargets needs a source with a \"path\" and a \"line\"")
    pid = debuggee.pid
    found = (await debuggee.request("symbols.lookup", pid=pid, file=path,
                                    line=adapter.from_client_line(line)))["symbol"]
    return {"targets": [{"id": (pid << PID_SHIFT) | found["address"],
                         "label": f"line {found['line']} in {found.get('symbol', '?')}",
                         "line": adapter.to_client_line(found["line"]),
                         "instructionPointerReference": f"0x{found['address']:08x}"}]}


@handles("goto")
async def goto(adapter, args: dict[str, Any]) -> None:
    debuggee = adapter.need_debuggee()
    pid = thread_of(adapter, args)
    target = args.get("targetId")
    if isinstance(target, bool) or not isinstance(target, int) or target < 0:
        raise DapError(f"\"targetId\" must be an id from gotoTargets, not {target!r}")
    target_pid, address = target >> PID_SHIFT, target & ((1 << PID_SHIFT) - 1)
    if target_pid != pid:
        raise DapError(f"that target is in PID {target_pid}'s code, not PID {pid}'s")
    await debuggee.client.jump(pid, address)
    adapter.handles.reset()
    adapter.later(lambda: adapter.event("stopped", reason="goto", threadId=pid,
                                        allThreadsStopped=False))
