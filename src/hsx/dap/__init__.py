"""`hsx dap`: a Debug Adapter Protocol server for HSX (docs/dap.md).

    serve_stdio()                 # one session on stdin/stdout (how VS Code starts it)
    serve_tcp("127.0.0.1", 4711)  # sessions from TCP clients, one after another

A thin layer over `hsx.client` (never the executive's internals): `protocol` frames
messages, `transport` carries them, `adapter` dispatches requests to the modules of
`handlers`, `events` turns the executive's events into DAP events.
"""
from .server import serve_stdio, serve_tcp

__all__ = ["serve_stdio", "serve_tcp"]
