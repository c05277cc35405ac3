"""Messages of the byte-stream link: protocol v1 objects as CBOR (docs/wire.md,
"Payload: CBOR"), translated so that front ends see the very dicts `hsx execd` sends.

Names are numbers on the link: a map's keys, the command, and a word as a value (tag
39) are the numbers of `keys.py`'s table, and a code made of a word and a detail
(`pid_locked:3`) is tag 39 over [number, detail]; the board's hello starts with the
table's digest.  To the device: the request without `version` and `id` (the frame's seq
stands for the id), the fields a board reads by number (it reads no other), event
categories and streams as words, and the data of `poke`, `load.write`, `stdio` and `send` as a CBOR byte string,
whether protocol v1 has it as hex, base64 or (stdin, a message) text in UTF-8: the device
takes bytes and never decodes text.  From the device: byte strings become
the hex text protocol v1 uses (`data` of `peek`, `old`/`new` of `watch_update`), text
that arrived as bytes becomes text, and replies get back `version` (and, from the
client, their `id`).  What a board leaves to the host is added here: a received
message's `data_hex` beside its text, and the words of a log entry a board keeps as the
event it was (a task's fault or end), as hsx execd logs it.
"""
from __future__ import annotations

import base64
import binascii
from typing import Any

import cbor2

from ..errors import ProtocolError
from hsx.link import keys
from hsx.link.names import PayloadError, decode_names

# command (and its aliases) -> {field: how protocol v1 encodes it as text}
_BINARY_FIELDS: dict[str, dict[str, str]] = {}
for _names, _fields in (
        (("poke", "mem.write", "write_mem"), {"data": "hex", "data_hex": "hex", "data_b64": "base64"}),
        (("load.write",), {"data": "base64"}),
        (("stdio", "send", "mailbox.send"), {"data": "utf-8", "data_hex": "hex",
                                             "data_b64": "base64"})):
    for _name in _names:
        _BINARY_FIELDS[_name] = _fields
_TEXT_KEYS = frozenset({"text", "message", "app_name", "name"})


class TableMismatch(PayloadError):
    """The board's hello carries another key table's digest: its firmware was built by
    another version of hsx, and its numbers would be read as other words."""


def encode_request(message: dict[str, Any]) -> bytes:
    """The CBOR payload of a `Q` frame for a protocol v1 request in its canonical form
    (`id` and `version` left out: the frame's seq is the id).  Bad hex or base64 is
    refused here with the `bad_argument` the executive would send."""
    fields = {k: v for k, v in message.items() if k not in ("id", "version")}
    binary = _BINARY_FIELDS.get(str(fields.get("cmd", "")).lower())
    if binary:
        for name, encoding in binary.items():
            if isinstance(fields.get(name), str):
                fields["data"] = _decode_text(fields.pop(name), encoding, name)
    out: dict[int, Any] = {}
    for name, value in fields.items():
        number = keys.NUMBERS.get(name)
        if number is None or number >= keys.FIRST_COMMAND:
            continue                               # a board reads no other field
        if name == "cmd":
            value = keys.command_number(str(value))
            if value is None:
                raise ProtocolError("unknown_cmd", f"the board has no command "
                                    f"'{fields['cmd']}'")
        elif name in _WORD_LISTS and isinstance(value, list):
            value = [_word(item) for item in value]
        out[number] = value
    return cbor2.dumps(out, canonical=True)


_WORD_LISTS = ("categories", "streams")


def _word(text: Any) -> Any:
    number = keys.NUMBERS.get(text) if isinstance(text, str) else None
    return text if number is None else cbor2.CBORTag(keys.WORD_TAG, number)


def _decode_text(text: str, encoding: str, name: str) -> bytes:
    try:
        if encoding == "utf-8":
            return text.encode("utf-8")
        if encoding == "hex":
            return bytes.fromhex(text)
        return base64.b64decode(text, validate=True)
    except (ValueError, binascii.Error):
        example = '"01ff"' if encoding == "hex" else "base64 text"
        raise ProtocolError("bad_argument", f"'{name}' must be {encoding} ({example})") from None


def decode_message(payload: bytes) -> dict[str, Any]:
    """A reply, event or N frame from the device as protocol v1's dict."""
    return _message(decode_names(payload))


def decode_hello(payload: bytes) -> dict[str, Any]:
    """A board's hello: [the key table's digest, the hello's map]; TableMismatch when the
    digest is not this hsx's.  (A device that names keys by their text, as the tests'
    fake boards do, sends the map alone.)"""
    hello = decode_names(payload)
    if isinstance(hello, list) and len(hello) == 2 and isinstance(hello[0], int):
        if hello[0] != keys.DIGEST:
            raise TableMismatch(
                f"the board's firmware numbers the protocol's words with another table "
                f"(digest 0x{hello[0]:08X}; this hsx's is 0x{keys.DIGEST:08X}): it was built "
                "by another version of hsx; build it again with this one (hsx board build)")
        hello = hello[1]
    return _message(hello)


def _message(message: Any) -> dict[str, Any]:
    """A decoded map as protocol v1 has it, with what a board leaves to the host added."""
    if not isinstance(message, dict) or not all(isinstance(k, str) for k in message):
        raise PayloadError("not a CBOR map with text keys")
    for received in message.get("messages") or ():       # listen
        if isinstance(received, dict) and isinstance(received.get("text"), bytes):
            received["data_hex"] = received["text"].hex()
    for entry in message.get("logs") or ():              # dmesg
        if isinstance(entry, dict) and "event" in entry:
            entry["message"] = _logged(entry)
    return _textual(message)


def _logged(entry: dict[str, Any]) -> str:
    """hsx execd's words for a logged event (hsx.server.dmesg)."""
    event, pid = entry.pop("event"), entry.get("pid")
    if event == "fault":
        return f"task {pid} faulted: {entry.pop('kind', None)}"
    status = entry.pop("exit_status", None)
    return f"task {pid} {event}" + (f" (exit status {status})" if status is not None else "")


def _textual(value: Any, key: str | None = None) -> Any:
    """Byte strings as protocol v1 spells them: hex, or text for textual fields."""
    if isinstance(value, dict):
        return {k: _textual(v, k) for k, v in value.items()}
    if isinstance(value, list):
        return [_textual(v, key) for v in value]
    if isinstance(value, (bytes, bytearray)):
        if key in _TEXT_KEYS:
            return bytes(value).decode("utf-8", errors="replace")
        return bytes(value).hex()
    return value
