"""Driving a plan over a client: blocking (`Client`) or asyncio (`AsyncClient`, or
anything with an awaitable `request(cmd, **fields)`)."""
from __future__ import annotations

from typing import Any

from ..errors import ProtocolError
from .parse import Invocation
from .plans import plan
from .syntax import Request


class _Steps:
    """A plan being carried out: each reply (or error) in, the next request out."""

    def __init__(self, invocation: Invocation) -> None:
        self._plan = plan(invocation)
        self.result: dict[str, Any] = {}

    def next(self, reply: Any = None, failure: ProtocolError | None = None) -> Request | None:
        try:
            return self._plan.throw(failure) if failure else self._plan.send(reply)
        except StopIteration as done:
            self.result = done.value
            return None


def run(client: Any, invocation: Invocation) -> dict[str, Any]:
    """Carry out a (non-local) invocation with a blocking client; returns the result."""
    steps = _Steps(invocation)
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
    steps = _Steps(invocation)
    request = steps.next()
    while request is not None:
        try:
            reply = await client.request(request.cmd, **request.fields)
        except ProtocolError as error:
            request = steps.next(failure=error)
            continue
        request = steps.next(reply)
    return steps.result
