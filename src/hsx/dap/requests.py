"""The table of request handlers: `@handles("next")` registers one.

A handler is `async def name(adapter, arguments) -> body | None`; it raises `DapError`
(or lets a `ProtocolError` through) to fail the request with a message for the user.
"""
from __future__ import annotations

from typing import Any, Awaitable, Callable

Handler = Callable[[Any, dict[str, Any]], Awaitable[dict[str, Any] | None]]
HANDLERS: dict[str, Handler] = {}


def handles(*commands: str) -> Callable[[Handler], Handler]:
    def register(handler: Handler) -> Handler:
        for command in commands:
            HANDLERS[command] = handler
        return handler
    return register
