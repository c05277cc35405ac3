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
from .core import Gateway, with_host_features
from .runs import GATEWAY_EVENTS


class _Filter:
    """What the front end subscribed to: clauses of (categories, pids), None meaning all,
    as protocol v1 keeps them -- `events.subscribe` sets the subscription's one clause,
    `stdio` adds one for output (docs/protocol.md); no clause: it has not subscribed."""

    OUTPUT = ["stdout", "stderr"]

    def __init__(self) -> None:
        self.clauses: list[tuple[list[str] | None, set[int] | None]] = []

    @property
    def on(self) -> bool:
        return bool(self.clauses)

    def clear(self) -> None:
        self.clauses = []

    def widened(self, fields: dict[str, Any]) -> dict[str, Any]:
        """The subscription to send for the front end's: with the gateway's types."""
        categories = fields.get("categories")
        categories = [categories] if isinstance(categories, str) else categories
        self.clauses = [(categories, _pids(fields.get("pids", fields.get("pid"))))]
        out = dict(fields)
        if categories is not None:
            out["categories"] = list(dict.fromkeys([*categories, *GATEWAY_EVENTS]))
        out.pop("pids", None)
        out.pop("pid", None)
        return out

    def stdio(self, fields: dict[str, Any]) -> None:
        """A `stdio` request that subscribes to output (or unsubscribes from it)."""
        op = fields.get("op") or ("write" if {"data", "data_hex", "data_b64", "eof"} & set(fields)
                                  else "subscribe")
        clause = (list(fields.get("streams") or self.OUTPUT), _pids(fields.get("pid")))
        if op == "subscribe":
            self.clauses.append(clause)
        elif op == "unsubscribe" and clause in self.clauses:
            self.clauses.remove(clause)

    def wants(self, event: dict[str, Any]) -> bool:
        kind = str(event.get("type"))
        if kind == "board_reset":
            return True
        return any(self._matches(categories, pids, kind, event)
                   for categories, pids in self.clauses)

    @staticmethod
    def _matches(categories, pids, kind: str, event: dict[str, Any]) -> bool:
        if pids is not None and event.get("pid") not in pids:
            return kind == "warning" and event.get("pid") is None
        return categories is None or any(kind == c or kind.startswith(c) for c in categories)


def _pids(value: Any) -> set[int] | None:
    return None if value is None else set(value if isinstance(value, list) else [value])


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

    def _noted(self, cmd: str, fields: dict[str, Any]) -> dict[str, Any]:
        """What the front end subscribes to, noted before the request goes on (a
        subscription is widened to the events the gateway needs)."""
        if _is_subscribe(cmd):
            self.gateway.subscribed = True
            return self._filter.widened(fields)
        if _is_unsubscribe(cmd):                   # nothing for the front end, nor for us
            self._filter.clear()
            self.gateway.subscribed = False
        elif cmd.lower() == "stdio":
            self._filter.stdio(fields)
        return fields

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
        fields = self._noted(cmd, fields)
        try:
            return self._numbered(drive(self.gateway.request(cmd, fields), self._device))
        finally:
            self._ready.extend(e for e in self.gateway.take_outbox() if self._filter.wants(e))

    def _device(self, cmd: str, fields: dict[str, Any]) -> dict[str, Any]:
        return self.inner.request(cmd, **fields)

    def open_session(self, *args: Any, **kwargs: Any) -> dict[str, Any]:
        self.inner.session = with_host_features(self.inner.open_session(*args, **kwargs),
                                                bool(self.gateway.hello))
        return self.inner.session

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
        fields = self._noted(cmd, fields)
        async with self._lock:
            try:
                return self._numbered(await adrive(self.gateway.request(cmd, fields),
                                                   self._device))
            finally:
                self._hand_on(self.gateway.take_outbox())

    async def _device(self, cmd: str, fields: dict[str, Any]) -> dict[str, Any]:
        return await self.inner.request(cmd, **fields)

    async def open_session(self, *args: Any, **kwargs: Any) -> dict[str, Any]:
        self.inner.session = with_host_features(
            await self.inner.open_session(*args, **kwargs), bool(self.gateway.hello))
        return self.inner.session

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
