"""Names as numbers on the link (docs/wire.md, "Payload: CBOR"): a map's keys and the
words carried as values (CBOR tag 39) are numbers of `keys.py`'s table.  `named` turns a
decoded item's numbers back into their names, `numbered` does the reverse for the
names the table has (any other key stays text, which every reader takes too)."""
from __future__ import annotations

from typing import Any

import cbor2

from . import keys


class PayloadError(ValueError):
    """A frame's payload is not what it should be (not CBOR, a number the table lacks)."""


def decode_names(payload: bytes) -> Any:
    """The CBOR item with its numbered keys and words named (bytes stay bytes)."""
    try:
        return named(cbor2.loads(payload, tag_hook=_words))
    except PayloadError:
        raise
    except Exception as error:         # cbor2 raises several kinds on broken input
        raise PayloadError(f"not CBOR: {error}") from None


def decode_request(payload: bytes) -> dict[str, Any]:
    """A request as a device reads it, with its names; PayloadError unless it is a map."""
    request = decode_names(payload)
    if not isinstance(request, dict) or not all(isinstance(k, str) for k in request):
        raise PayloadError("a request is a CBOR map with text or numbered keys")
    if isinstance(request.get("cmd"), int):
        request["cmd"] = _text_of(request["cmd"])
    return request


def named(value: Any) -> Any:
    """Numbered map keys as their names, all the way down."""
    if isinstance(value, dict):
        return {_text_of(k) if isinstance(k, int) else k: named(v) for k, v in value.items()}
    if isinstance(value, list):
        return [named(v) for v in value]
    return value


def numbered(value: Any) -> Any:
    """Map keys the table names as their numbers, all the way down (values stay)."""
    if isinstance(value, dict):
        return {keys.NUMBERS.get(k, k) if isinstance(k, str) else k: numbered(v)
                for k, v in value.items()}
    if isinstance(value, list):
        return [numbered(v) for v in value]
    return value


def _words(tag: cbor2.CBORTag, immutable: bool) -> Any:
    """Tag 39: a word of the table, or a word and its detail joined (`pid_locked:3`)."""
    if tag.tag != keys.WORD_TAG:
        return tag.value                       # other tags: the item stands for itself
    value = tag.value
    if isinstance(value, (list, tuple)) and len(value) == 2:     # (a tuple: cbor2 in a tag)
        return _text_of(value[0]) + (str(value[1]) if isinstance(value[1], int)
                                     else value[1])
    return _text_of(value)


def _text_of(number: Any) -> str:
    if not isinstance(number, int) or not 0 <= number < len(keys.TEXTS):
        raise PayloadError(f"{number!r} is not a word of the key table")
    return keys.TEXTS[number]
