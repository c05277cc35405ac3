"""What the client raises: the server said no (`ProtocolError`), or the link is gone."""
from __future__ import annotations

from typing import Any


class ProtocolError(Exception):
    """An error reply: `code` is the server's stable `error` string (e.g.
    `pid_locked:3`), `message` its explanation, `reply` the whole reply.  A command the
    executive's variant lacks is `unsupported` with `variant_required` ("development",
    "full"); its message (hsx execd's, or the client's words for a board's) names it."""

    def __init__(self, code: str, message: str, reply: dict[str, Any] | None = None) -> None:
        reply = reply or {}
        self.variant_required: str | None = reply.get("variant_required") \
            if isinstance(reply.get("variant_required"), str) else None
        super().__init__(f"{code}: {message}" if message else code)
        self.code = code
        self.message = message
        self.reply = reply


class ConnectionClosed(ConnectionError):
    """The executive closed the connection (or it broke) before the reply came."""
