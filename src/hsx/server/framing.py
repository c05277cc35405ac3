"""Protocol v1 framing: one UTF-8 JSON object per line, in both directions.

The splitter never buffers more than `max_line` bytes: the tail of an oversized line is
dropped as it arrives, so a 10 MiB line costs the server 1 MiB at most and the
connection stays usable afterwards.  Decoding turns every kind of bad input into a
`RequestError` with a stable code instead of an exception that would end the connection:
JSON nested deeper than `MAX_NESTING` (which would otherwise exhaust the parser's
recursion), strings holding lone UTF-16 surrogates (`"\ud800"`, which no reply could
carry back), numbers too long to convert.
"""
from __future__ import annotations

import json
import math
import re
from typing import Any, Iterator

import orjson

from .errors import RequestError

PROTOCOL_VERSION = 1
MAX_LINE = 1 << 20
MAX_NESTING = 32                 # arrays and objects inside one another in a request
_SURROGATE = re.compile("[\ud800-\udfff]")
_DIGITS = bytes(48 if 48 <= b <= 57 else 32 for b in range(256))   # digits -> "0", rest " "
_LONG_RUN = b"0" * 19

TOO_LONG = object()         # yielded by LineSplitter in place of an oversized line


def _default(value: Any) -> Any:
    """What a reply carries for an object JSON has no type for."""
    return value.to_dict() if hasattr(value, "to_dict") else str(value)


_encoder = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False,
                            default=_default)


def encode(message: dict[str, Any]) -> bytes:
    """One wire line (compact JSON + newline).  NaN and infinities, which JSON cannot
    carry, are sent as null rather than breaking the line.  orjson does the common case
    (several times faster: every event goes through here); what it refuses (integers
    beyond 64 bits, text that is not valid Unicode, keys that are not strings) takes the
    standard library's path."""
    try:
        return orjson.dumps(message, default=_default, option=orjson.OPT_APPEND_NEWLINE)
    except (orjson.JSONEncodeError, TypeError):
        pass
    try:
        text = _encoder.encode(message)
    except ValueError:
        text = _encoder.encode(_finite(message))
    return (text + "\n").encode("utf-8", "replace")     # a lone surrogate becomes "?"


def _finite(value: Any) -> Any:
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_finite(v) for v in value]
    return value


class LineSplitter:
    """Cuts a byte stream into lines of at most `max_line` bytes (newline excluded)."""

    def __init__(self, max_line: int = MAX_LINE) -> None:
        self.max_line = max_line
        self._buf = bytearray()
        self._discarding = False

    def whole_line(self, data: bytes) -> bytes | None:
        """`data` without its newline when it is exactly one line that fits and nothing
        is held from before (what a request/reply client sends): else None, and `feed`
        is the way."""
        if (not self._buf and not self._discarding and data.find(b"\n") == len(data) - 1
                and len(data) <= self.max_line):
            return data[:-1]
        return None

    def feed(self, data: bytes) -> Iterator[bytes | object]:
        """Yield each complete line, or TOO_LONG once for each oversized line."""
        start = 0
        end = len(data)
        while start < end:
            newline = data.find(b"\n", start)
            if newline < 0:
                if not self._discarding:
                    if len(self._buf) + (end - start) > self.max_line:
                        self._buf.clear()
                        self._discarding = True
                        yield TOO_LONG
                    else:
                        self._buf += data[start:end]
                return
            if self._discarding:
                self._discarding = False
            elif len(self._buf) + (newline - start) > self.max_line:
                self._buf.clear()
                yield TOO_LONG
            else:
                if self._buf:
                    self._buf += data[start:newline]
                    line = bytes(self._buf)
                    self._buf.clear()
                else:
                    line = data[start:newline]
                yield line
            start = newline + 1


def decode_request(line: bytes) -> dict[str, Any]:
    """Parse and check one request line: a JSON object with a string `cmd`, version 1.

    The returned dict has `cmd` normalised (stripped, lower case).  A refusal carries
    the request's `id` when the line got far enough to have one.
    """
    if _LONG_RUN in line.translate(_DIGITS):   # 19+ digits: orjson reads integers past
        message = _loads_slowly(line)           # 64 bits as floats
    else:
        try:
            message = orjson.loads(line)
        except orjson.JSONDecodeError:   # the standard library says what is wrong (or
            message = _loads_slowly(line)    # reads what orjson refuses: NaN, UTF-16)
    # A line that can hold neither nesting past MAX_NESTING (fewer brackets than that)
    # nor a surrogate (ASCII without `\u` escapes) needs no walk of the parsed tree.
    if not (line.isascii() and b"\\u" not in line
            and line.count(b"{") + line.count(b"[") <= MAX_NESTING):
        _check_tree(message)
    if type(message) is dict:      # the common case: nothing to refuse or normalise
        version = message.get("version", PROTOCOL_VERSION)
        cmd = message.get("cmd")
        session = message.get("session")
        if (type(version) is int and version == PROTOCOL_VERSION and type(cmd) is str
                and cmd and cmd == cmd.strip().lower()          # as _check_envelope leaves it
                and (session is None or type(session) is str)):
            return message
    if not isinstance(message, dict):
        raise RequestError("bad_request",
                           f"request must be a JSON object, not {type(message).__name__}")
    try:
        _check_envelope(message)
    except RequestError as error:
        if "id" in message:
            error.request_id, error.has_request_id = message["id"], True
        raise
    return message


def _loads_slowly(line: bytes) -> Any:
    try:
        return json.loads(line)
    except RecursionError:
        raise RequestError("bad_json", f"request nested deeper than {MAX_NESTING} "
                           "levels") from None
    except (UnicodeDecodeError, ValueError) as error:
        raise RequestError("bad_json", f"request is not valid JSON: {error}") from None


def _check_tree(message: Any) -> None:
    """Refuse nesting past MAX_NESTING and lone surrogates in any key or string."""
    pending = [(message, 1)]
    while pending:
        item, depth = pending.pop()
        if isinstance(item, (dict, list)):
            if depth > MAX_NESTING:
                raise RequestError("bad_json", f"request nested deeper than {MAX_NESTING} levels")
            children = [*item.keys(), *item.values()] if isinstance(item, dict) else item
            pending.extend((child, depth + 1) for child in children)
        elif isinstance(item, str) and not item.isascii():
            found = _SURROGATE.search(item)
            if found:
                raise RequestError("bad_json", "request holds a lone UTF-16 surrogate "
                                   f"(\\u{ord(found.group()):04x}), which is not text")


def _check_envelope(message: dict[str, Any]) -> None:
    version = message.get("version", PROTOCOL_VERSION)
    cmd = message.get("cmd")
    session = message.get("session")
    if isinstance(version, bool) or not isinstance(version, int):
        raise RequestError("bad_request", "'version' must be an integer")
    if version != PROTOCOL_VERSION:
        raise RequestError("unsupported_version",
                           f"protocol version {version} is not supported (this server speaks 1)")
    if not isinstance(cmd, str) or not cmd.strip():
        raise RequestError("bad_request", "'cmd' must be a non-empty string")
    if session is not None and not isinstance(session, str):
        raise RequestError("bad_request", "'session' must be a string")
    message["cmd"] = cmd.strip().lower()
