"""`AsyncClient`: the asyncio client for front ends that do several things at once
(a TUI, the debug adapter).

One reader task owns the socket: replies go to the request awaiting their `id`, events
to a bounded queue.  Requests may be issued concurrently.  While a session is open, a
keepalive task sends heartbeats on time.  The reader hands the event loop back after
every chunk it reads, so a flood of events never starves the rest of the program (a
UI's keys and repaints); `next_events` takes what has queued up in one go.
"""
from __future__ import annotations

import asyncio
import contextlib
from typing import Any, AsyncIterator

from .errors import ConnectionClosed
from .helpers import install
from .wire import (DEFAULT_HOST, DEFAULT_PORT, Progress, check, decode, encode_request,
                   is_event, session_open_fields, subscribe_fields)

LINE_LIMIT = 64 << 20          # the longest line accepted from the executive
CHUNK = 1 << 16                # read at a time (and about what the stream buffers)
_LINK_GONE: dict[str, Any] = {"type": "<link gone>"}   # queued when the reader ends


class AsyncClient:
    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, *,
                 timeout: float, max_events: int) -> None:
        self.timeout = timeout
        self.session_id: str | None = None
        self.session: dict[str, Any] | None = None
        self.events_dropped = 0
        self._reader, self._writer = reader, writer
        self._pending: dict[int, asyncio.Future] = {}
        self._events: asyncio.Queue[dict[str, Any]] = asyncio.Queue(max_events)
        self._next_id = 1
        self._closed: BaseException | None = None
        self._read_task = asyncio.create_task(self._read_loop())
        self._keepalive_task: asyncio.Task | None = None

    @classmethod
    async def connect(cls, host: str = DEFAULT_HOST, port: int = DEFAULT_PORT, *,
                      timeout: float = 10.0, token: str | None = None,
                      max_events: int = 100_000, gateway: bool | None = None,
                      progress: Progress | None = None) -> AsyncClient:
        """A client for the executive on host:port, or at the URL `host` (`tcp://`,
        `socket://`, `serial://`: see `Client.connect`, which takes the same options)."""
        if "://" in host or gateway:
            from .connect import connect_async
            url = host if "://" in host else f"tcp://{host}:{port}"
            return await connect_async(url, timeout=timeout, token=token,
                                       max_events=max_events, gateway=gateway,
                                       progress=progress)
        reader, writer = await asyncio.wait_for(
            asyncio.open_connection(host, port, limit=CHUNK), timeout)
        client = cls(reader, writer, timeout=timeout, max_events=max_events)
        if token is not None:
            try:
                await client.request("ping", token=token)
            except BaseException:
                await client.close()
                raise
        return client

    async def __aenter__(self) -> AsyncClient:
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self.close()

    async def close(self) -> None:
        if self._keepalive_task is not None:
            self._keepalive_task.cancel()
        self._read_task.cancel()
        self._writer.close()
        with contextlib.suppress(Exception):
            await self._writer.wait_closed()
        with contextlib.suppress(BaseException):
            await self._read_task

    # ------------------------------------------------------------------ requests

    async def request(self, cmd: str, **fields: Any) -> dict[str, Any]:
        """Send one request and return its ok reply, or raise ProtocolError."""
        if self._closed is not None:
            raise ConnectionClosed(str(self._closed))
        request_id = self._next_id
        self._next_id += 1
        future: asyncio.Future = asyncio.get_running_loop().create_future()
        self._pending[request_id] = future
        try:
            self._writer.write(encode_request(cmd, fields, request_id, self.session_id))
            await self._writer.drain()
            return check(await asyncio.wait_for(future, self.timeout))
        except TimeoutError:
            raise TimeoutError(f"no reply to {cmd!r} within {self.timeout} s") from None
        except (ConnectionError, OSError) as error:
            raise ConnectionClosed(f"connection to the executive failed: {error}") from None
        finally:
            self._pending.pop(request_id, None)

    # ------------------------------------------------------------------ sessions

    async def open_session(self, client: str = "hsx.client", *,
                           pid_lock: int | list[int] | None = None, observer: bool = False,
                           heartbeat_s: float | None = None, features: list[str] | None = None,
                           max_events: int | None = None,
                           auth: str | None = None) -> dict[str, Any]:
        fields = session_open_fields(client, pid_lock, observer, heartbeat_s, features,
                                     max_events, auth)
        reply = await self.request("session.open", **fields)
        self.session = reply["session"]
        self.session_id = self.session["id"]
        if self._keepalive_task is None:
            self._keepalive_task = asyncio.create_task(self._keepalive_loop())
        return self.session

    async def close_session(self) -> None:
        if self.session_id is not None:
            try:
                await self.request("session.close")
            finally:
                self.session_id = self.session = None

    async def subscribe(self, categories: str | list[str] | None = None,
                        pids: int | list[int] | None = None,
                        since_seq: int | None = None,
                        coalesce_ms: int | None = None,
                        credit: int | None = None) -> dict[str, Any]:
        """Events of `categories` from `pids` (both: all but the high-rate ones), after
        `since_seq` first; with `coalesce_ms` a task's consecutive stdout/stderr writes
        come as one event, held at most that long for more; with `credit` at most that
        many events arrive until `ack` acknowledges some (docs/protocol.md)."""
        fields = subscribe_fields(categories, pids, since_seq, coalesce_ms, credit)
        return (await self.request("events.subscribe", **fields))["events"]

    async def ack(self, seq: int) -> dict[str, Any]:
        """Acknowledge every event up to `seq` (`events.ack`): the subscription's stats."""
        return (await self.request("events.ack", seq=seq))["events"]

    async def _keepalive_loop(self) -> None:
        while True:
            session = self.session
            await asyncio.sleep(session["heartbeat_s"] / 2 if session else 1.0)
            if self.session_id is not None:
                with contextlib.suppress(Exception):
                    await self.request("session.keepalive")

    # ------------------------------------------------------------------ events

    async def next_event(self, timeout: float | None = None) -> dict[str, Any] | None:
        """The next event, or None after `timeout` seconds without one."""
        if self._closed is not None and self._events.empty():
            raise ConnectionClosed(str(self._closed))
        try:
            event = await asyncio.wait_for(self._events.get(), timeout)
        except asyncio.TimeoutError:
            return None
        if event is _LINK_GONE:               # the reader ended while we waited
            self._events.put_nowait(event)    # for any other waiter
            raise ConnectionClosed(str(self._closed))
        return event

    async def next_events(self, limit: int = 1024,
                          timeout: float | None = None) -> list[dict[str, Any]]:
        """The events queued up (at most `limit`), waiting for the first one; [] after
        `timeout` seconds without one.  For consumers that handle events in batches."""
        first = await self.next_event(timeout)
        if first is None:
            return []
        batch = [first]
        queue = self._events
        while len(batch) < limit and not queue.empty():
            event = queue.get_nowait()
            if event is _LINK_GONE:           # deliver what came before it first
                queue.put_nowait(event)
                break
            batch.append(event)
        return batch

    async def events(self, timeout: float | None = None) -> AsyncIterator[dict[str, Any]]:
        """Events as they come; stops after `timeout` seconds without one."""
        while (event := await self.next_event(timeout)) is not None:
            yield event

    # ------------------------------------------------------------------ the reader

    async def _read_loop(self) -> None:
        try:
            await self._read_messages()
        except asyncio.CancelledError:
            self._closed = ConnectionClosed("client closed")
            raise
        except Exception as error:          # the link broke: fail everyone waiting
            self._closed = error
            for future in self._pending.values():
                if not future.done():
                    future.set_exception(ConnectionClosed(str(error)))
            if self._events.full():
                self._events.get_nowait()
                self.events_dropped += 1
            self._events.put_nowait(_LINK_GONE)   # wakes a next_event() waiting now

    async def _read_messages(self) -> None:
        """Read lines for ever, handing each message to `_deliver`."""
        partial: list[bytes] = []             # the start of a line still arriving
        size = 0
        while True:
            chunk = await self._reader.read(CHUNK)
            if not chunk:
                raise ConnectionClosed("the executive closed the connection")
            if b"\n" not in chunk:
                partial.append(chunk)
                size += len(chunk)
                if size > LINE_LIMIT:
                    raise ValueError(f"the executive sent a line over {LINE_LIMIT} bytes")
                continue
            if partial:
                chunk = b"".join(partial) + chunk
                partial, size = [], 0
            *lines, rest = chunk.split(b"\n")
            if rest:
                partial, size = [rest], len(rest)
            for line in lines:
                if line.strip():
                    self._deliver(decode(line))
            await asyncio.sleep(0)        # everyone else gets a turn between chunks

    def _deliver(self, message: dict[str, Any]) -> None:
        if is_event(message):
            if self._events.full():
                self._events.get_nowait()
                self.events_dropped += 1
            self._events.put_nowait(message)
            return
        future = self._pending.get(message.get("id"))
        if future is not None and not future.done():
            future.set_result(message)


install(AsyncClient, asynchronous=True)  # frame_variables, evaluate, ... (helpers.py)
