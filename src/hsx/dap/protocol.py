"""The Debug Adapter Protocol's wire: Content-Length framing and the message shapes.

A message is `Content-Length: N\\r\\n\\r\\n` followed by N bytes of UTF-8 JSON (the DAP
base protocol).  `Framer` turns bytes, as they arrive in any pieces, into messages;
`encode` does the reverse.  Requests, responses and events are plain dicts made here,
so every module of the adapter speaks the same shapes.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

HEADER_END = b"\r\n\r\n"
MAX_MESSAGE = 64 << 20            # a larger Content-Length is taken for garbage


class DapError(Exception):
    """A request that cannot be done: its message is shown to the user as it is."""


@dataclass
class Malformed:
    """Bytes that are not a DAP message, and why (answered with an error response)."""

    reason: str
    request: dict[str, Any] = field(default_factory=dict)


def encode(message: dict[str, Any]) -> bytes:
    body = json.dumps(message, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


class Framer:
    """Incremental decoder: `feed(chunk)` returns the messages (dicts) and `Malformed`
    items completed by it."""

    def __init__(self) -> None:
        self._buf = bytearray()
        self._length: int | None = None        # body length once the header is read

    def feed(self, chunk: bytes) -> list[dict[str, Any] | Malformed]:
        self._buf += chunk
        out: list[dict[str, Any] | Malformed] = []
        while True:
            if self._length is None:
                end = self._buf.find(HEADER_END)
                if end < 0:
                    if len(self._buf) > 4096:          # no header in sight: drop it
                        out.append(Malformed("a header longer than 4096 bytes"))
                        self._buf.clear()
                    return out
                header = bytes(self._buf[:end]).decode("ascii", "replace")
                del self._buf[:end + len(HEADER_END)]
                self._length = _content_length(header)
                if self._length is None:
                    out.append(Malformed(f"no valid Content-Length in header {header!r}"))
                    continue
            if len(self._buf) < self._length:
                return out
            body = bytes(self._buf[:self._length])
            del self._buf[:self._length]
            self._length = None
            out.append(_decode(body))


def _content_length(header: str) -> int | None:
    for line in header.split("\r\n"):
        name, _, value = line.partition(":")
        if name.strip().lower() == "content-length":
            try:
                length = int(value.strip())
            except ValueError:
                return None
            return length if 0 <= length <= MAX_MESSAGE else None
    return None


def _decode(body: bytes) -> dict[str, Any] | Malformed:
    try:
        message = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as error:
        return Malformed(f"the body is not JSON ({error})")
    if not isinstance(message, dict):
        return Malformed("the body is not a JSON object")
    if message.get("type") != "request" or not isinstance(message.get("command"), str):
        return Malformed("not a request (it needs \"type\": \"request\" and a \"command\")",
                         message)
    if not isinstance(message.get("seq"), int):
        return Malformed("the request has no integer \"seq\"", message)
    if not isinstance(message.setdefault("arguments", {}), dict):
        return Malformed("\"arguments\" must be an object", message)
    return message


def response(request: dict[str, Any], body: dict[str, Any] | None = None) -> dict[str, Any]:
    reply: dict[str, Any] = {"type": "response", "request_seq": request.get("seq", 0),
                             "success": True, "command": request.get("command", "")}
    if body is not None:
        reply["body"] = body
    return reply


def error_response(request: dict[str, Any], message: str) -> dict[str, Any]:
    """A failed request: `message` is what the user sees."""
    reply = response(request)
    reply["success"] = False
    reply["message"] = message
    return reply


def event(name: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
    message: dict[str, Any] = {"type": "event", "event": name}
    if body is not None:
        message["body"] = body
    return message


def object_arg(args: dict[str, Any], name: str) -> dict[str, Any]:
    """An optional argument that must be a JSON object (a `source`): {} when absent."""
    return _typed_arg(args, name, dict, "an object")


def list_arg(args: dict[str, Any], name: str) -> list[Any]:
    """An optional argument that must be a JSON array (`breakpoints`): [] when absent."""
    return _typed_arg(args, name, list, "an array")


def _typed_arg(args: dict[str, Any], name: str, kind: type, what: str) -> Any:
    value = args.get(name)
    if value is None:
        return kind()
    if not isinstance(value, kind):
        raise DapError(f"\"{name}\" must be {what}, not {value!r}")
    return value
