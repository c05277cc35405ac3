"""The debugger's command line (`:`) and `hsx dbg --json CMD`: the shell's command
language (`hsx.client.commands`) with the attached task as the current one, so `regs`,
`bt`, `p list->head`, `x/16xw SP`, `b walk.c:21 if i == 2`, `n`, `finish`, `until 0x40`
and any protocol command (`dmesg limit=5`) work as they do in `hsx shell`.

The front end's own commands (`help`, `use`, `quit`, `events`, `wait`) and the
confirmation of writes are the caller's; run control can wait for the stop it leads to.
"""
from __future__ import annotations

import asyncio
from typing import Any

from hsx.client.commands import Invocation, UsageError, help_text, parse, run_async

from .target import ProtocolError, Target

WAIT_S = 30.0
# Requests after which the task runs until something stops it.
RUNS = frozenset({"resume", "step.line", "step.over", "step.out", "run.to", "step.back",
                  "continue.back"})

__all__ = ["Invocation", "UsageError", "execute", "help_text", "parse", "runs"]


def runs(invocation: Invocation, pid: int | None) -> bool:
    """Does this invocation set task `pid` running (so that a stop will follow)?"""
    return invocation.command.cmd in RUNS and invocation.pid == pid


async def execute(target: Target, invocation: Invocation, *, wait: bool = False) -> Any:
    """Carry out a (non-local) invocation; with `wait`, run control returns the stop it
    led to and the task's row."""
    await _functions_at_their_bodies(target, invocation)
    if not (wait and runs(invocation, target.pid)):
        return await run_async(target, invocation)
    stopped = asyncio.ensure_future(target.next_stop())
    try:
        await run_async(target, invocation)
        event = await asyncio.wait_for(stopped, WAIT_S)
        return {"stopped": {"type": event["type"], **event.get("data", {})},
                "task": (await target.request("ps", pid=target.pid))["tasks"]["tasks"][0]}
    except TimeoutError:
        raise ProtocolError("still_running", f"the task did not stop within {WAIT_S:g} s") \
            from None
    finally:
        stopped.cancel()


async def _functions_at_their_bodies(target: Target, invocation: Invocation) -> None:
    """`break square`, `until square`: where gdb stops, at the function's first line
    after its prologue (its arguments in place), not at its first instruction."""
    where = invocation.values.get("addr")
    if (invocation.command.cmd in ("bp.set", "run.to") and isinstance(where, str)
            and where.isidentifier() and invocation.pid == target.pid):
        try:
            invocation.values["addr"] = await target.function_body(where)
        except ProtocolError:
            pass                        # not a function: the command says what is wrong
