"""What connections, the dispatcher and the command handlers need from the server.

They are given the server as a `ServerContext`, the interface written down here, so
they depend on this module and not on server.py, which builds them from the handler
groups: the server imports its parts, never the other way round.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Awaitable, Protocol

if TYPE_CHECKING:
    from hsx.debug import Debugger
    from hsx.kernel.executive import Kernel
    from hsx.kernel.task import Task

    from .clock import AutoClock
    from .dmesg import Dmesg
    from .outputs import OutputBuffers
    from .sessions import SessionTable
    from .subscriptions import EventHub


class ServerContext(Protocol):
    config: Any                              # server.ServerConfig
    kernel: Kernel
    debugger: Debugger
    dispatcher: Any                          # dispatch.Dispatcher (which imports this)
    sessions: SessionTable
    clock: AutoClock
    hub: EventHub
    log: Dmesg
    outputs: OutputBuffers
    connections: set[Any]                    # connection.Connection (which imports this)
    token: str | None
    max_line: int
    closing: bool
    address: tuple[str, int] | None

    def attach_symbols(self, task: Task) -> None: ...
    def request_shutdown(self) -> None: ...
    def connection_opened(self, conn: Any) -> None: ...
    def connection_closed(self, conn: Any) -> None: ...
    def handle_line(self, conn: Any, line: bytes) -> dict[str, Any] | Awaitable[dict]: ...
    def internal_failure(self, where: str, error: BaseException, rid: Any = None,
                         has_id: bool = False) -> dict[str, Any]: ...
    def line_too_long(self) -> dict[str, Any]: ...
