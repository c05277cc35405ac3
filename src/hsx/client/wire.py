"""The request/reply/event shapes, shared by the sync and asyncio clients."""
from __future__ import annotations

import json
from typing import Any

from .errors import ProtocolError

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 9998
PROTOCOL_VERSION = 1


def encode_request(cmd: str, fields: dict[str, Any], request_id: int,
                   session: str | None) -> bytes:
    message: dict[str, Any] = {"version": PROTOCOL_VERSION, "cmd": cmd, "id": request_id}
    if session is not None and "session" not in fields:
        message["session"] = session
    message.update(fields)
    return (json.dumps(message, separators=(",", ":")) + "\n").encode("utf-8")


def decode(line: bytes) -> dict[str, Any]:
    message = json.loads(line)
    if not isinstance(message, dict):
        raise ValueError(f"server sent a non-object line: {line[:80]!r}")
    return message


def is_event(message: dict[str, Any]) -> bool:
    """Events have `seq`/`type` and no `status`; replies always have `status`."""
    return "status" not in message


def check(reply: dict[str, Any]) -> dict[str, Any]:
    """The reply if ok, else raise its error as ProtocolError."""
    if reply.get("status") != "ok":
        raise ProtocolError(str(reply.get("error", "error")), str(reply.get("message", "")),
                            reply)
    return reply
