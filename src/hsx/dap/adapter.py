"""The adapter: reads DAP requests, runs their handlers one at a time, sends replies and
events.  Modelled on debugpy's adapter: a thin layer that turns requests into calls on
`hsx.client` (docs/dap.md).  The handlers live in the modules `handlers` imports; the
executive's side of a debug session is a `Debuggee` (debuggee.py).

Ordering: a request's response goes out before any event it causes (VS Code expects
`next`'s response before its `stopped`), so the event pump (events.py) and the request
loop take turns through `self.turn`.
"""
from __future__ import annotations

import asyncio
import logging
import traceback
from typing import Any, Callable

from hsx.client import ConnectionClosed, ProtocolError

from . import handlers  # noqa: F401  (registers every request handler)
from .breakpoints import BreakpointBook
from .errors import explain
from .protocol import DapError, Malformed, error_response, event, response
from .requests import HANDLERS
from .transport import Channel
from .variables import Handles

log = logging.getLogger("hsx.dap")


class Adapter:
    def __init__(self, channel: Channel) -> None:
        self.channel = channel
        self.turn = asyncio.Lock()
        self.debuggee: Any = None             # a Debuggee once launched or attached
        self.breakpoints = BreakpointBook()
        self.handles = Handles()
        self.client_info: dict[str, Any] = {}  # initialize's arguments
        self.line_base = 1                     # the client's first line (linesStartAt1)
        self.column_base = 1                   # ... and column (columnsStartAt1)
        self.finished = asyncio.Event()        # after disconnect
        self.events: Any = None                # the EventPump, once there is a debuggee
        self.pump: asyncio.Task | None = None  # ...and the task running it
        self._seq = 0
        self._after: list[Callable[[], None]] = []

    # ------------------------------------------------------------------ sending

    def send(self, message: dict[str, Any]) -> None:
        self._seq += 1
        message["seq"] = self._seq
        log.debug("-> %s", message)
        self.channel.send(message)

    def event(self, name: str, **body: Any) -> None:
        self.send(event(name, body))

    def output(self, text: str, category: str = "console") -> None:
        if text:
            self.event("output", category=category, output=text)

    def later(self, action: Callable[[], None]) -> None:
        """Do `action` (send an event) right after the current request's response."""
        self._after.append(action)

    # ------------------------------------------------------------------ the loop

    async def serve(self) -> None:
        """Answer requests until `disconnect` or the end of the input."""
        while not self.finished.is_set():
            message = await self.channel.read()
            if message is None:
                break
            if isinstance(message, Malformed):
                self.send(error_response(message.request or {"command": "unknown"},
                                         f"malformed request: {message.reason}"))
                continue
            await self.handle(message)
        await self.shutdown()

    async def handle(self, request: dict[str, Any]) -> None:
        log.debug("<- %s", request)
        async with self.turn:
            self._after = []
            reply = await self._answer(request)
            self.send(reply)
            if reply["success"]:
                for action in self._after:
                    action()

    async def _answer(self, request: dict[str, Any]) -> dict[str, Any]:
        command = request["command"]
        handler = HANDLERS.get(command)
        if handler is None:
            return error_response(request, f"hsx dap does not support the request {command!r}")
        try:
            return response(request, await handler(self, request["arguments"]))
        except DapError as error:
            return error_response(request, str(error))
        except (ProtocolError, ConnectionClosed, TimeoutError) as error:
            return error_response(request, explain(error))
        except Exception as error:                             # a bug of ours: say so
            log.error("%s failed:\n%s", command, traceback.format_exc())
            return error_response(request, f"internal error in hsx dap while handling "
                                           f"{command}: {error!r}")

    async def shutdown(self) -> None:
        """Leave the executive as disconnect (or a vanished client) leaves it."""
        if self.pump is not None:
            self.pump.cancel()
        if self.debuggee is not None:
            debuggee, self.debuggee = self.debuggee, None
            await debuggee.close(terminate=debuggee.launched)
        await self.channel.close()

    # ------------------------------------------------------------------ helpers

    def need_debuggee(self) -> Any:
        if self.debuggee is None:
            raise DapError("no program is being debugged yet: launch or attach first")
        return self.debuggee

    def to_client_line(self, line: int | None) -> int:
        return 0 if not line else line - 1 + self.line_base

    def from_client_line(self, line: int) -> int:
        return line + 1 - self.line_base
