"""Driving a plan over a client: blocking (`Client`) or asyncio (`AsyncClient`, or
anything with an awaitable `request(cmd, **fields)`)."""
from __future__ import annotations

from typing import Any

from ..errors import ProtocolError
from .parse import Invocation
from .plans import Plan, plan
from .syntax import Request


class _Steps:
    """A plan being carried out: each reply (or error) in, the next request out."""

    def __init__(self, steps: Plan) -> None:
        self._plan = steps
        self.result: dict[str, Any] = {}

    def next(self, reply: Any = None, failure: ProtocolError | None = None) -> Request | None:
        """The next request, or None when the plan is done (`result` then holds it)."""
        try:
            return self._plan.throw(failure) if failure else self._plan.send(reply)
        except StopIteration as done:
            self.result = done.value
            return None


def run(client: Any, invocation: Invocation) -> dict[str, Any]:
    """Carry out a (non-local) invocation with a blocking client; returns the result."""
    steps = _Steps(plan(invocation))
    request = steps.next()
    while request is not None:
        try:
            reply = client.request(request.cmd, **request.fields)
        except ProtocolError as error:
            request = steps.next(failure=error)
            continue
        request = steps.next(reply)
    return steps.result


async def run_async(client: Any, invocation: Invocation) -> dict[str, Any]:
    """The same with an asyncio client."""
    return await drive_async(client, plan(invocation))


async def drive_async(client: Any, steps_: Plan) -> Any:
    """Any plan (a generator of requests) with an asyncio client."""
    steps = _Steps(steps_)
    request = steps.next()
    while request is not None:
        try:
            reply = await client.request(request.cmd, **request.fields)
        except ProtocolError as error:
            request = steps.next(failure=error)
            continue
        request = steps.next(reply)
    return steps.result
