"""Reverse execution over protocol v1: `history.on/off/status`, `step.back`,
`continue.back` (docs/protocol.md, "Reverse execution"). The session feature `reverse`
tells front ends that the executive offers it."""
from __future__ import annotations

from typing import Any

from ..dispatch import Call, Group
from ..schema import PID, Int, Str
from .debug import controlled_pid, debugger

group = Group("reverse", feature="reverse")


@group.command("history.on", "record.on", writes=True,
               args={"pid": PID, "budget_mb|budget": Int(1, 1024)})
def history_on(call: Call) -> dict[str, Any]:
    """Record the task from now on (`budget_mb`: history kept, default 32)."""
    pid = controlled_pid(call)
    budget = call.int("budget_mb", None, min=1, max=1024, aliases=("budget",))
    return {"history": debugger(call).history_on(pid, None if budget is None else budget << 20)}


@group.command("history.off", "record.off", writes=True, args={"pid": PID})
def history_off(call: Call) -> dict[str, Any]:
    return {"history": debugger(call).history_off(controlled_pid(call))}


@group.command("history.status", "record.status", args={"pid": PID})
def history_status(call: Call) -> dict[str, Any]:
    return {"history": debugger(call).history_status(call.task().pid)}


@group.command("step.back", "reverse.step", writes=True,
               args={"pid": PID, "unit": Str(choices=("instruction", "line"))})
def step_back(call: Call) -> dict[str, Any]:
    """One instruction back (`unit: "instruction"`), or to where the previous source line
    began (`unit: "line"`)."""
    pid = controlled_pid(call)
    unit = call.str("unit", "instruction")
    return {"result": debugger(call).step_back(pid, unit)}


@group.command("continue.back", "reverse.continue", writes=True, args={"pid": PID})
def continue_back(call: Call) -> dict[str, Any]:
    """Back to the latest breakpoint hit, or to the start of the history."""
    return {"result": debugger(call).continue_back(controlled_pid(call))}
