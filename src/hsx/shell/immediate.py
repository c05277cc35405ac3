"""One console command without an event loop: `hsx shell ps` and the like.

The console (`core.Shell`) is written against `AsyncClient`, for the prompt, where
events arrive while commands run.  A command that needs no events is run by the same
code over `ImmediateClient`: the blocking `Client` behind the coroutine methods the
console calls, which never wait for anything but a reply that the blocking client has
already read.  Such a coroutine finishes on its first step, so `finish_now` runs it
without asyncio, whose import (it loads `ssl`) was a quarter of the command's time.
"""
from __future__ import annotations

from typing import Any, Coroutine, TypeVar

from hsx.client.sync import Client

T = TypeVar("T")


def finish_now(coroutine: Coroutine[Any, Any, T]) -> T:
    """The result of a coroutine that never suspends (RuntimeError if it does)."""
    try:
        coroutine.send(None)
    except StopIteration as done:
        return done.value
    coroutine.close()
    raise RuntimeError("the console waited for something outside a request: "
                       "this command needs the event loop")


class ImmediateClient:
    """The part of `AsyncClient` the console uses for commands without events, over
    a blocking `Client`."""

    def __init__(self, client: Client) -> None:
        self.client = client

    @classmethod
    async def connect(cls, host: str, port: int, *, timeout: float,
                      token: str | None) -> ImmediateClient:
        return cls(Client(host, port, timeout=timeout, token=token))

    @property
    def session_id(self) -> str | None:
        return self.client.session_id

    async def request(self, cmd: str, **fields: Any) -> dict[str, Any]:
        return self.client.request(cmd, **fields)

    async def open_session(self, client: str = "hsx.client", **fields: Any) -> dict[str, Any]:
        return self.client.open_session(client, **fields)

    async def close_session(self) -> None:
        self.client.close_session()

    async def close(self) -> None:
        self.client.close()
