"""Reading a request's fields in the gateway, with the errors `hsx execd` gives."""
from __future__ import annotations

from typing import Any

from hsx.debug import DebugError

_MISSING = object()


def _get(fields: dict[str, Any], name: str, aliases: tuple[str, ...]) -> Any:
    for key in (name, *aliases):
        if key in fields:
            return fields[key]
    return _MISSING


def integer(fields: dict[str, Any], name: str, default: Any, low: int, high: int | None,
            aliases: tuple[str, ...] = ()) -> int:
    """An integer field (a number, or text such as "0x40"), within low..high."""
    value = _get(fields, name, aliases)
    if value is _MISSING or value is None:
        if default is None:
            raise DebugError("bad_argument", f"'{name}' is required")
        return default
    if isinstance(value, str):
        try:
            value = int(value.strip(), 0)
        except ValueError:
            pass
    if not isinstance(value, int) or isinstance(value, bool) or value < low or (
            high is not None and value > high):
        top = "" if high is None else f"..{high}"
        raise DebugError("bad_argument", f"'{name}' must be an integer {low}{top}, not {value!r}")
    return value


def text(fields: dict[str, Any], name: str, default: Any = None,
         aliases: tuple[str, ...] = ()) -> str:
    value = _get(fields, name, aliases)
    if value is _MISSING or value is None:
        if default is None:
            raise DebugError("bad_argument", f"'{name}' is required")
        return default
    if not isinstance(value, str) or not value.strip():
        raise DebugError("bad_argument", f"'{name}' must be non-empty text, not {value!r}")
    return value


def flag(fields: dict[str, Any], name: str) -> bool | None:
    value = fields.get(name)
    if value is None or isinstance(value, bool):
        return value
    if value in (0, 1):
        return bool(value)
    if isinstance(value, str) and value.lower() in ("on", "off", "true", "false", "1", "0"):
        return value.lower() in ("on", "true", "1")
    raise DebugError("bad_argument", f"'{name}' must be a boolean, not {value!r}")


def where(fields: dict[str, Any], required: bool = True):
    """A code location as hsx.debug takes it: `addr` (a number, or text it parses),
    `symbol`, or `file` and `line`."""
    addr = fields.get("addr", fields.get("address"))
    if isinstance(addr, str):
        return addr
    if addr is not None:
        return integer(fields, "addr", None, 0, 0xFFFFFFFF, aliases=("address",))
    if "symbol" in fields:
        return text(fields, "symbol")
    if "file" in fields:
        return text(fields, "file"), integer(fields, "line", None, 1, 10_000_000)
    if required:
        raise DebugError("bad_argument", "requires 'addr', 'symbol' or 'file' and 'line'")
    return None


def session_of(fields: dict[str, Any]) -> dict[str, Any]:
    """The request's `session` field, to pass on with what the gateway sends for it."""
    return {"session": fields["session"]} if "session" in fields else {}
