"""What the client raises: the server said no (`ProtocolError`), or the link is gone."""
from __future__ import annotations

from typing import Any


class ProtocolError(Exception):
    """An error reply: `code` is the server's stable `error` string (e.g.
    `pid_locked:3`), `message` its explanation, `reply` the whole reply."""

    def __init__(self, code: str, message: str, reply: dict[str, Any] | None = None) -> None:
        super().__init__(f"{code}: {message}" if message else code)
        self.code = code
        self.message = message
        self.reply = reply or {}


class ConnectionClosed(ConnectionError):
    """The executive closed the connection (or it broke) before the reply came."""
