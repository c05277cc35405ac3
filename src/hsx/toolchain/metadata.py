"""`.value`, `.cmd` and `.mailbox` payloads: key aliases, validation, conversion.

The assembler stores each record in the `.hxo` in *canonical* form (one name per
key, flag words as integers, floats still floats).  `normalize` is idempotent, so
the linker runs it again on whatever an object holds, including objects written by
the prior assembler, before building the image model (floats become f16 there).
"""
from __future__ import annotations

import json
import math
from typing import Any, Callable

from hsx.image.errors import ImageError
from hsx.image.metadata import parse_mailbox_mode
from hsx.image.model import (AUTH_LEVELS, COMMAND_FLAGS, MAILBOX_MODES, VALUE_FLAGS,
                             CommandSpec, MailboxBinding, MailboxSpec, ValueSpec)
from hsx.isa.f16 import F16_POS_INF, float_to_f16

KINDS = {".value": "values", ".cmd": "commands", ".mailbox": "mailboxes"}

_VALUE_ALIASES = {
    "group": "group", "group_id": "group", "groupId": "group",
    "id": "value", "value": "value", "value_id": "value", "valueId": "value",
    "group_name": "group_name", "groupName": "group_name",
    "name": "name", "unit": "unit", "unit_name": "unit", "unitName": "unit",
    "flags": "flags", "auth": "auth", "auth_level": "auth", "authLevel": "auth",
    "init": "init", "init_value": "init", "epsilon": "epsilon", "min": "min", "max": "max",
    "init_raw": "init_raw", "epsilon_raw": "epsilon_raw", "min_raw": "min_raw",
    "max_raw": "max_raw", "persist_key": "persist_key", "persist": "persist_key",
    "rate_ms": "rate_ms", "rateMs": "rate_ms",
}
_COMMAND_ALIASES = {
    "group": "group", "group_id": "group", "groupId": "group",
    "id": "cmd", "cmd": "cmd", "cmd_id": "cmd", "command_id": "cmd", "commandId": "cmd",
    "group_name": "group_name", "groupName": "group_name", "name": "name", "help": "help",
    "flags": "flags", "auth": "auth", "auth_level": "auth", "authLevel": "auth",
    "handler": "handler", "handler_offset": "handler_offset", "reserved": "reserved",
}
_MAILBOX_ALIASES = {
    "target": "target", "name": "target", "capacity": "capacity", "queue_depth": "capacity",
    "mode_mask": "mode_mask", "mode": "mode_mask", "flags": "mode_mask",
    "owner_pid": "owner_pid", "bindings": "bindings",
}
_VALUE_FLAG_NAMES = {**VALUE_FLAGS, "READONLY": VALUE_FLAGS["RO"], "READ_ONLY": VALUE_FLAGS["RO"]}
_FLOATS = ("init", "epsilon", "min", "max")


class MetadataError(ValueError):
    """A metadata record that cannot be stored; the message names the key."""


def parse_payload(directive: str, text: str) -> list[dict[str, Any]]:
    """JSON text of a metadata directive -> canonical records."""
    if not text:
        raise MetadataError(f"{directive} needs a JSON object or array on the same line")
    try:
        payload = json.loads(text)
    except json.JSONDecodeError as exc:
        raise MetadataError(f"bad {directive} JSON: {exc.msg} (column {exc.colno})") from None
    records = payload if isinstance(payload, list) else [payload]
    if not records or not all(isinstance(r, dict) for r in records):
        raise MetadataError(f"{directive} needs a JSON object or a non-empty array of objects")
    return [normalize(KINDS[directive], record) for record in records]


def normalize(kind: str, record: dict[str, Any]) -> dict[str, Any]:
    """Canonical form of one record of `kind` ('values', 'commands', 'mailboxes')."""
    return _NORMALIZERS[kind](record)


def record_key(kind: str, record: dict[str, Any]) -> tuple:
    """What must be unique across a linked image."""
    if kind == "values":
        return (record["group"], record["value"])
    if kind == "commands":
        return (record["group"], record["cmd"])
    return (record["target"],)


def describe_key(kind: str, key: tuple) -> str:
    if kind == "mailboxes":
        return f"mailbox '{key[0]}'"
    return f"{kind[:-1]} ({key[0]},{key[1]})"


# -- canonical form ---------------------------------------------------------------------

def _rename(record: dict[str, Any], aliases: dict[str, str], what: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in record.items():
        name = aliases.get(key)
        if name is None:
            known = ", ".join(sorted(set(aliases)))
            raise MetadataError(f"unknown {what} key '{key}' (known: {known})")
        if name in out:
            raise MetadataError(f"{what} key '{key}' repeats '{name}'")
        out[name] = value
    return out


def _int(record: dict, key: str, lo: int, hi: int, what: str) -> None:
    value = record.get(key)
    if value is None:
        record.pop(key, None)
        return
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise MetadataError(f"{what} '{key}' must be an integer {lo}..{hi}, got {value!r}")


def _required(record: dict, key: str, what: str) -> None:
    if key not in record:
        raise MetadataError(f"{what} needs '{key}'")


def _text(record: dict, key: str, what: str) -> None:
    if key in record and not (record[key] is None or isinstance(record[key], str)):
        raise MetadataError(f"{what} '{key}' must be a string")
    if record.get(key) is None:
        record.pop(key, None)


def _flag_word(value: Any, names: dict[str, int], what: str, key: str) -> int:
    """An int, or names joined by '|' or ',' (case-insensitive)."""
    if isinstance(value, str):
        word = 0
        for token in value.replace(",", "|").split("|"):
            token = token.strip().upper()
            if token not in names:
                raise MetadataError(f"unknown {what} {key} '{token}' "
                                    f"(known: {', '.join(sorted(names))})")
            word |= names[token]
        return word
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise MetadataError(f"{what} '{key}' must be a non-negative integer or names")
    return value


def _identity(out: dict[str, Any], id_key: str, text_keys: tuple[str, ...],
              flag_names: dict[str, int], what: str) -> None:
    """Check what values and commands share: group and id, strings, flags, auth."""
    for key in ("group", id_key):
        _required(out, key, what)
        _int(out, key, 0, 255, what)
    for key in text_keys:
        _text(out, key, what)
    if "flags" in out:
        out["flags"] = _flag_word(out["flags"], flag_names, what, "flags")
        _int(out, "flags", 0, 255, what)
    if "auth" in out:
        out["auth"] = _flag_word(out["auth"], AUTH_LEVELS, what, "auth")
        _int(out, "auth", 0, 255, what)


def _value(record: dict[str, Any]) -> dict[str, Any]:
    what = "value"
    out = _rename(record, _VALUE_ALIASES, what)
    _identity(out, "value", ("name", "unit", "group_name"), _VALUE_FLAG_NAMES, what)
    for key in _FLOATS:
        value = out.get(key)
        if value is None:
            out.pop(key, None)
        elif isinstance(value, bool) or not isinstance(value, (int, float)):
            raise MetadataError(f"value '{key}' must be a number, got {value!r}")
        elif not _fits_f16(value):
            raise MetadataError(f"value '{key}' must be a number -65504..65504 (values are "
                                f"f16), got {value!r}")
        _int(out, key + "_raw", 0, 0xFFFF, what)
    _int(out, "persist_key", 0, 0xFFFF, what)
    _int(out, "rate_ms", 0, 0xFFFFFFFF, what)
    return out


def _fits_f16(value: int | float) -> bool:
    """True when `value` is finite and does not round to an f16 infinity."""
    try:
        return math.isfinite(value) and float_to_f16(float(value)) & 0x7FFF != F16_POS_INF
    except OverflowError:                   # an int too large for a double
        return False


def _command(record: dict[str, Any]) -> dict[str, Any]:
    what = "command"
    out = _rename(record, _COMMAND_ALIASES, what)
    _identity(out, "cmd", ("name", "help", "group_name"), COMMAND_FLAGS, what)
    handler = out.get("handler")
    if isinstance(handler, int) and not isinstance(handler, bool):
        if "handler_offset" in out:
            raise MetadataError("command has both 'handler' and 'handler_offset'")
        out["handler_offset"] = out.pop("handler")
    elif handler is not None and not (isinstance(handler, str) and handler):
        raise MetadataError("command 'handler' must be a code label or an offset")
    _int(out, "handler_offset", 0, 0xFFFFFFFF, what)
    _int(out, "reserved", 0, 0xFFFF, what)
    return out


def _mailbox(record: dict[str, Any]) -> dict[str, Any]:
    what = "mailbox"
    out = _rename(record, _MAILBOX_ALIASES, what)
    target = out.get("target")
    if not isinstance(target, str) or not target.strip():
        raise MetadataError("mailbox needs a non-empty 'target'")
    out["target"] = target.strip()
    _int(out, "capacity", 0, 0xFFFF, what)
    if "mode_mask" in out:
        try:
            out["mode_mask"] = parse_mailbox_mode(out["mode_mask"])
        except ImageError as exc:
            raise MetadataError(str(exc)) from None
    _int(out, "owner_pid", 0, 0xFFFFFFFF, what)
    bindings = out.get("bindings")
    if bindings is not None:
        if not isinstance(bindings, list):
            raise MetadataError("mailbox 'bindings' must be a list")
        for binding in bindings:
            if not isinstance(binding, dict) or set(binding) - {"pid", "flags"}:
                raise MetadataError("mailbox bindings are objects with 'pid' and 'flags'")
            _required(binding, "pid", "mailbox binding")
            _int(binding, "pid", 0, 0xFFFFFFFF, "mailbox binding")
            _int(binding, "flags", 0, 0xFFFFFFFF, "mailbox binding")
    return out


_NORMALIZERS: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
    "values": _value, "commands": _command, "mailboxes": _mailbox}


# -- canonical form -> image model ------------------------------------------------------

def _f16(record: dict, key: str) -> int:
    if key + "_raw" in record:
        return record[key + "_raw"]
    return float_to_f16(float(record[key])) if key in record else 0


def value_spec(record: dict[str, Any]) -> ValueSpec:
    return ValueSpec(
        group=record["group"], value=record["value"], flags=record.get("flags", 0),
        auth=record.get("auth", 0), init_f16=_f16(record, "init"), name=record.get("name"),
        unit=record.get("unit"), epsilon_f16=_f16(record, "epsilon"),
        min_f16=_f16(record, "min"), max_f16=_f16(record, "max"),
        persist_key=record.get("persist_key", 0), group_name=record.get("group_name"))


def command_spec(record: dict[str, Any], handler_offset: int) -> CommandSpec:
    return CommandSpec(
        group=record["group"], cmd=record["cmd"], flags=record.get("flags", 0),
        auth=record.get("auth", 0), handler_offset=handler_offset, name=record.get("name"),
        help=record.get("help"), group_name=record.get("group_name"),
        reserved=record.get("reserved", 0))


def mailbox_spec(record: dict[str, Any]) -> MailboxSpec:
    return MailboxSpec(
        target=record["target"], capacity=record.get("capacity", 0),
        mode_mask=record.get("mode_mask") or MAILBOX_MODES["RDWR"],
        owner_pid=record.get("owner_pid"),
        bindings=[MailboxBinding(b["pid"], b.get("flags", 0)) for b in record.get("bindings", [])])


# -- image model -> directive text (for `hsx disasm --mvasm`) ----------------------------

def value_directive(spec: ValueSpec) -> str:
    record = {"group": spec.group, "value": spec.value, "flags": spec.flags, "auth": spec.auth,
              "init_raw": spec.init_f16, "epsilon_raw": spec.epsilon_f16,
              "min_raw": spec.min_f16, "max_raw": spec.max_f16, "persist_key": spec.persist_key,
              "name": spec.name, "unit": spec.unit, "group_name": spec.group_name}
    return ".value " + _compact(record)


def command_directive(spec: CommandSpec, handler_label: str | None) -> str:
    record = {"group": spec.group, "cmd": spec.cmd, "flags": spec.flags, "auth": spec.auth,
              "name": spec.name, "help": spec.help, "group_name": spec.group_name,
              "reserved": spec.reserved}
    if handler_label:
        record["handler"] = handler_label
    else:
        record["handler_offset"] = spec.handler_offset
    return ".cmd " + _compact(record)


def mailbox_directive(spec: MailboxSpec) -> str:
    record: dict[str, Any] = {"target": spec.target, "capacity": spec.capacity,
                              "mode_mask": spec.mode_mask, "owner_pid": spec.owner_pid}
    if spec.bindings:
        record["bindings"] = [{"pid": b.pid, "flags": b.flags} for b in spec.bindings]
    return ".mailbox " + _compact(record)


def _compact(record: dict[str, Any]) -> str:
    return json.dumps({k: v for k, v in record.items() if v is not None},
                      separators=(", ", ": "), ensure_ascii=False)
