"""hsx.client layer (DESIGN.md §1): the one client library every front end uses.

    with Client("127.0.0.1", 9998) as c:                 # blocking
        c.request("ps")["tasks"]
        c.open_session("my-tool", pid_lock=1)
        c.subscribe(["task_state", "debug_break"], pids=[1])
        for event in c.events(timeout=1.0): ...

    c = await AsyncClient.connect("127.0.0.1", 9998)      # asyncio
    await c.request("step", pid=1, count=10)

An error reply raises `ProtocolError(code, message)`; a broken link `ConnectionClosed`.
docs/protocol.md lists every command.
"""
from .aio import AsyncClient
from .errors import ConnectionClosed, ProtocolError
from .sync import Client
from .wire import DEFAULT_HOST, DEFAULT_PORT

__all__ = ["AsyncClient", "Client", "ConnectionClosed", "DEFAULT_HOST", "DEFAULT_PORT",
           "ProtocolError"]
