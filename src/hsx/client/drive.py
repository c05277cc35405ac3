"""Running one piece of client logic on both clients.

Logic that needs several requests (a streamed load, the gateway's commands) is written
once, as a generator that yields `(cmd, fields)` and is sent each reply (or has the
request's `ProtocolError` thrown into it); `drive` runs it on the blocking client and
`adrive` on the asyncio one.

    def ping_twice():
        first = yield ("ping", {})
        return (yield ("ping", {}))
"""
from __future__ import annotations

from typing import Any, Awaitable, Callable, Generator

from .errors import ProtocolError

Request = tuple[str, dict[str, Any]]
Steps = Generator[Request, dict[str, Any], Any]


def drive(steps: Steps, perform: Callable[[str, dict[str, Any]], dict[str, Any]]) -> Any:
    """Run `steps` with blocking requests; returns what the generator returns."""
    value: Any = None
    error: ProtocolError | None = None
    while True:
        try:
            cmd, fields = steps.throw(error) if error is not None else steps.send(value)
        except StopIteration as done:
            return done.value
        try:
            value, error = perform(cmd, fields), None
        except ProtocolError as failure:
            value, error = None, failure


async def adrive(steps: Steps,
                 perform: Callable[[str, dict[str, Any]], Awaitable[dict[str, Any]]]) -> Any:
    """`drive` for the asyncio client."""
    value: Any = None
    error: ProtocolError | None = None
    while True:
        try:
            cmd, fields = steps.throw(error) if error is not None else steps.send(value)
        except StopIteration as done:
            return done.value
        try:
            value, error = await perform(cmd, fields), None
        except ProtocolError as failure:
            value, error = None, failure
