"""hsx.server layer (DESIGN.md §1, §5): protocol v1 over TCP around an in-process kernel.

    server = Server(ServerConfig(host="127.0.0.1", port=9998))
    await server.start(); await server.serve()        # or BackgroundServer(...) in a thread

Modules, one job each: `framing` (lines and JSON), `connection` (one client's I/O),
`sessions` (identity, PID locks, access policy), `subscriptions` (event filters, queues,
back-pressure), `dispatch` (command tables, request fields), `handlers/*` (one command
family each), `clock` (the auto clock), `server` (wiring).  docs/protocol.md is the
reference for clients.
"""
from .background import BackgroundServer
from .errors import RequestError
from .auth import is_loopback
from .server import DEFAULT_HOST, DEFAULT_PORT, Server, ServerConfig

__all__ = ["BackgroundServer", "DEFAULT_HOST", "DEFAULT_PORT", "RequestError", "Server",
           "ServerConfig", "is_loopback"]
