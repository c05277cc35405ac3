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
from hsx.lazy import lazy_exports

__getattr__, __dir__, __all__ = lazy_exports(__name__, {
    ".aio": ("AsyncClient",),
    ".errors": ("ConnectionClosed", "ProtocolError"),
    ".sync": ("Client",),
    ".wire": ("DEFAULT_HOST", "DEFAULT_PORT"),
})
