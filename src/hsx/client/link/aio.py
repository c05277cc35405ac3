"""`FramedAsyncClient`: the asyncio client over a framed link (`socket://`, `serial://`).

The same API as `AsyncClient` (it is one); its reader feeds `LinkProtocol`, a timer
retries late requests, `load {image}` becomes a streamed load in chunks, and a board
reset fails what was in flight with `board_reset` and queues a `board_reset` event.
Concurrent requests are sent one after the other (docs/wire.md: one unanswered
request at a time).
"""
from __future__ import annotations

import asyncio
import time
from typing import Any

from ..aio import CHUNK, AsyncClient
from ..drive import adrive
from ..errors import ConnectionClosed
from ..url import Endpoint
from ..wire import Progress, check
from .load import chunk_size, streamed_load
from .protocol import Event, Failed, LinkProtocol, Outcome, Reply, Reset
from .streams import attempt_timeout, open_async
from .sync import HELLO_TRIES, failure, reset_event


class FramedAsyncClient(AsyncClient):
    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                 endpoint: Endpoint, baud: int | None, *, timeout: float, max_events: int,
                 progress: Progress | None = None) -> None:
        self.endpoint = endpoint
        self.host, self.port = endpoint.host or endpoint.device, endpoint.port
        self.progress = progress
        self.resets = 0
        self._link = LinkProtocol(attempt_timeout(baud, timeout, endpoint.retry_s))
        self._greeted = asyncio.Event()
        self._timer: asyncio.TimerHandle | None = None
        super().__init__(reader, writer, timeout=timeout, max_events=max_events)

    @classmethod
    async def open(cls, endpoint: Endpoint, *, timeout: float = 10.0, token: str | None = None,
                   max_events: int = 100_000,
                   progress: Progress | None = None) -> FramedAsyncClient:
        reader, writer, baud = await open_async(endpoint, timeout)
        client = cls(reader, writer, endpoint, baud, timeout=timeout, max_events=max_events,
                     progress=progress)
        try:
            await client._greet()
            if token is not None:
                await client.request("ping", token=token)
        except BaseException:
            await client.close()
            raise
        return client

    @property
    def hello(self) -> dict[str, Any]:
        return self._link.hello or {}

    async def close(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
        await super().close()

    async def _greet(self) -> None:
        deadline = time.monotonic() + self.timeout
        while not self._greeted.is_set() or self._link.refused:
            left = deadline - time.monotonic()
            if self._link.refused:
                raise ConnectionClosed(f"{self.endpoint}: {self._link.refused}")
            if left <= 0 or self._closed is not None:
                raise ConnectionClosed(f"no hello from {self.endpoint} within {self.timeout:g} s: "
                                       "is it running the HSX executive?")
            self._link.say_hello()
            self._flush()
            try:
                await asyncio.wait_for(self._greeted.wait(), min(left, self.timeout / HELLO_TRIES))
            except asyncio.TimeoutError:
                pass

    # ------------------------------------------------------------------ requests

    async def request(self, cmd: str, **fields: Any) -> dict[str, Any]:
        if self._closed is not None:
            raise ConnectionClosed(str(self._closed))
        if cmd.lower() in ("load", "exec") and "image" in fields:
            steps = streamed_load(fields, chunk_size(int(self.hello.get("max_frame", 64))),
                                  self.progress)
            return await adrive(steps, self._exchange)
        return await self._exchange(cmd, fields)

    async def _exchange(self, cmd: str, fields: dict[str, Any]) -> dict[str, Any]:
        if self._closed is not None:
            raise ConnectionClosed(str(self._closed))
        key = self._next_id
        self._next_id += 1
        future: asyncio.Future = asyncio.get_running_loop().create_future()
        self._pending[key] = future
        message = {"cmd": cmd, **fields}
        if self.session_id is not None and "session" not in fields:
            message["session"] = self.session_id
        try:
            self._apply(self._link.submit(key, message, time.monotonic()))
            self._flush()
            reply = await asyncio.wait_for(future, self.timeout)
        except asyncio.TimeoutError:
            self._apply(self._link.cancel(key, time.monotonic()))
            self._flush()
            raise TimeoutError(f"no reply to {cmd!r} within {self.timeout} s") from None
        except (ConnectionError, OSError) as error:
            raise ConnectionClosed(f"connection to the device failed: {error}") from None
        finally:
            self._pending.pop(key, None)
        reply["id"] = key
        return check(reply)

    # ------------------------------------------------------------------ the link

    async def _read_messages(self) -> None:
        while True:
            chunk = await self._reader.read(CHUNK)
            if not chunk:
                raise ConnectionClosed("the device closed the connection")
            self._apply(self._link.received(chunk, time.monotonic()))
            if self._link.hello is not None or self._link.refused:
                self._greeted.set()
            self._flush()
            await asyncio.sleep(0)

    def _flush(self) -> None:
        data = self._link.output()
        if data:
            self._writer.write(data)
        self._arm()

    def _arm(self) -> None:
        """Wake up when the request in flight is due for a retry."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        deadline = self._link.deadline()
        if deadline is not None and self._closed is None:
            self._timer = asyncio.get_running_loop().call_later(
                max(0.0, deadline - time.monotonic()), self._expire)

    def _expire(self) -> None:
        self._timer = None
        self._apply(self._link.expire(time.monotonic()))
        try:
            self._flush()
        except (ConnectionError, OSError, RuntimeError):
            pass                            # the reader reports a broken link

    def _apply(self, outcomes: list[Outcome]) -> None:
        for outcome in outcomes:
            if isinstance(outcome, (Reply, Failed)):
                future = self._pending.get(outcome.key)
                if future is not None and not future.done():
                    future.set_result(outcome.message if isinstance(outcome, Reply)
                                      else failure(outcome))
            elif isinstance(outcome, Event):
                self._deliver(outcome.message)
            elif isinstance(outcome, Reset):
                self.resets += 1
                self.session_id = self.session = None
                self._deliver(reset_event(outcome.hello))
