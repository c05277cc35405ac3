"""The clients with the gateway in front: `GatewayClient` (blocking) and
`AsyncGatewayClient` (asyncio) have the API of the client they wrap; requests go
through `Gateway.request` and events through `Gateway.on_event`.

The gateway needs the stops of the tasks it steps, so a subscription the front end
makes is widened to them, and what the front end did not ask for is not handed on.
"""
from __future__ import annotations

import asyncio
import itertools
import time
from collections import deque
from typing import Any

from ..drive import adrive, drive
from ..helpers import install
from ..wire import subscribe_fields
from .core import Gateway
from .runs import GATEWAY_EVENTS


class _Filter:
    """Which events the front end subscribed to (None: it has not subscribed)."""

    def __init__(self) -> None:
        self.categories: list[str] | None = None
        self.pids: set[int] | None = None
        self.on = False

    def widened(self, fields: dict[str, Any]) -> dict[str, Any]:
        """The subscription to send for the front end's: with the gateway's types."""
        self.on = True
        categories = fields.get("categories")
        self.categories = [categories] if isinstance(categories, str) else categories
        pids = fields.get("pids", fields.get("pid"))
        self.pids = None if pids is None else set(pids if isinstance(pids, list) else [pids])
        out = dict(fields)
        if self.categories is not None:
            out["categories"] = list(dict.fromkeys([*self.categories, *GATEWAY_EVENTS]))
        out.pop("pids", None)
        out.pop("pid", None)
        return out

    def wants(self, event: dict[str, Any]) -> bool:
        if not self.on:
            return event.get("type") == "board_reset"
        kind = str(event.get("type"))
        if self.pids is not None and event.get("pid") not in self.pids:
            return kind in ("board_reset", "warning") and event.get("pid") is None
        if self.categories is None:
            return True
        return any(kind == c or kind.startswith(c) for c in self.categories) \
            or kind == "board_reset"


def _is_subscribe(cmd: str) -> bool:
    return cmd.lower() in ("events.subscribe", "subscribe")


def _is_unsubscribe(cmd: str) -> bool:
    return cmd.lower() in ("events.unsubscribe", "unsubscribe")


class _Wrapper:
    """Attributes the wrapper does not have are the inner client's (session, timeout,
    hello, progress, …), read and written."""

    _OWN = frozenset({"inner", "gateway", "_ready", "_filter", "_lock", "_events", "_pump",
                      "_ids"})

    def _numbered(self, reply: dict[str, Any]) -> dict[str, Any]:
        """A reply the gateway made gets an `id` as the executive's replies have."""
        if "id" not in reply:
            reply["id"] = f"gateway-{next(self._ids)}"
        return reply

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def __setattr__(self, name: str, value: Any) -> None:
        if name in self._OWN:
            object.__setattr__(self, name, value)
        else:
            setattr(self.inner, name, value)


class GatewayClient(_Wrapper):
    def __init__(self, inner, gateway: Gateway) -> None:
        self.inner, self.gateway = inner, gateway
        self._ready: deque[dict[str, Any]] = deque()
        self._filter = _Filter()
        self._ids = itertools.count(1)

    def __enter__(self) -> GatewayClient:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def close(self) -> None:
        self.inner.close()

    def request(self, cmd: str, **fields: Any) -> dict[str, Any]:
        if _is_subscribe(cmd):
            fields = self._filter.widened(fields)
            self.gateway.subscribed = True
        elif _is_unsubscribe(cmd):                 # nothing for the front end, nor for us
            self._filter.on = self.gateway.subscribed = False
        try:
            return self._numbered(drive(self.gateway.request(cmd, fields), self._device))
        finally:
            self._ready.extend(e for e in self.gateway.take_outbox() if self._filter.wants(e))

    def _device(self, cmd: str, fields: dict[str, Any]) -> dict[str, Any]:
        return self.inner.request(cmd, **fields)

    def open_session(self, *args: Any, **kwargs: Any) -> dict[str, Any]:
        return self.inner.open_session(*args, **kwargs)

    def close_session(self) -> None:
        self.inner.close_session()

    def subscribe(self, categories=None, pids=None, since_seq=None, coalesce_ms=None,
                  credit=None):
        fields = subscribe_fields(categories, pids, since_seq, coalesce_ms, credit)
        return self.request("events.subscribe", **fields)["events"]

    def next_event(self, timeout: float | None = None) -> dict[str, Any] | None:
        deadline = None if timeout is None else time.monotonic() + timeout
        while not self._ready:
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                return None
            event = self.inner.next_event(left)
            if event is None:
                return None
            self._take(event)
        return self._ready.popleft()

    def events(self, timeout: float | None = None):
        while (event := self.next_event(timeout)) is not None:
            yield event

    def drain_events(self) -> list[dict[str, Any]]:
        for event in self.inner.drain_events():
            self._take(event)
        out = list(self._ready)
        self._ready.clear()
        return out

    def _take(self, event: dict[str, Any]) -> None:
        for out in drive(self.gateway.on_event(event), self._device):
            if self._filter.wants(out):
                self._ready.append(out)


class AsyncGatewayClient(_Wrapper):
    def __init__(self, inner, gateway: Gateway) -> None:
        self.inner, self.gateway = inner, gateway
        self._filter = _Filter()
        self._ids = itertools.count(1)
        self._lock = asyncio.Lock()
        self._events: asyncio.Queue = asyncio.Queue(max(inner._events.maxsize, 1))
        self._pump = asyncio.create_task(self._pump_events())

    async def __aenter__(self) -> AsyncGatewayClient:
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self.close()

    async def close(self) -> None:
        self._pump.cancel()
        try:
            await self._pump
        except BaseException:
            pass
        await self.inner.close()

    async def request(self, cmd: str, **fields: Any) -> dict[str, Any]:
        if _is_subscribe(cmd):
            fields = self._filter.widened(fields)
            self.gateway.subscribed = True
        elif _is_unsubscribe(cmd):
            self._filter.on = self.gateway.subscribed = False
        async with self._lock:
            try:
                return self._numbered(await adrive(self.gateway.request(cmd, fields),
                                                   self._device))
            finally:
                self._hand_on(self.gateway.take_outbox())

    async def _device(self, cmd: str, fields: dict[str, Any]) -> dict[str, Any]:
        return await self.inner.request(cmd, **fields)

    async def open_session(self, *args: Any, **kwargs: Any) -> dict[str, Any]:
        return await self.inner.open_session(*args, **kwargs)

    async def close_session(self) -> None:
        await self.inner.close_session()

    async def subscribe(self, categories=None, pids=None, since_seq=None, coalesce_ms=None,
                        credit=None):
        fields = subscribe_fields(categories, pids, since_seq, coalesce_ms, credit)
        return (await self.request("events.subscribe", **fields))["events"]

    async def _pump_events(self) -> None:
        """Every event from the device through the gateway, in order."""
        while True:
            try:
                event = await self.inner.next_event()
            except Exception as error:         # the link is gone: waiters hear it
                if self._events.full():
                    self._events.get_nowait()
                self._events.put_nowait(error)
                return
            if event is None:
                continue
            async with self._lock:
                self._hand_on(await adrive(self.gateway.on_event(event), self._device))

    def _hand_on(self, events: list[dict[str, Any]]) -> None:
        """Queue what the front end wants (the oldest goes when nobody reads: counted in
        `events_dropped`, as the client's own queue does)."""
        for event in events:
            if self._filter.wants(event):
                if self._events.full():
                    self._events.get_nowait()
                    self.events_dropped += 1
                self._events.put_nowait(event)

    async def next_event(self, timeout: float | None = None) -> dict[str, Any] | None:
        try:
            item = await asyncio.wait_for(self._events.get(), timeout)
        except asyncio.TimeoutError:
            return None
        if isinstance(item, BaseException):
            self._events.put_nowait(item)
            raise item
        return item

    async def next_events(self, limit: int = 1024,
                          timeout: float | None = None) -> list[dict[str, Any]]:
        first = await self.next_event(timeout)
        if first is None:
            return []
        batch = [first]
        while len(batch) < limit and not self._events.empty():
            item = self._events.get_nowait()
            if isinstance(item, BaseException):
                self._events.put_nowait(item)
                break
            batch.append(item)
        return batch

    async def events(self, timeout: float | None = None):
        while (event := await self.next_event(timeout)) is not None:
            yield event


install(GatewayClient, asynchronous=False)
install(AsyncGatewayClient, asynchronous=True)
