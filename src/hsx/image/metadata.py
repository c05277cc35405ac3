"""Byte layouts of the v2 metadata sections `.value`, `.cmd` and `.mailbox`.

A section is a payload plus the entry count from its table entry; `hxe.py` places the
sections in the file and checks their bounds.  In `.value` and `.cmd` payloads the
records come first, then a de-duplicated table of NUL-terminated UTF-8 strings whose
offsets are relative to the section start; offset 0 (or an empty string) means "none".
"""
from __future__ import annotations

import struct
from collections.abc import Iterable
from typing import NamedTuple

from .errors import ImageError, check_uint
from .model import (MAILBOX_MODES, SECTION_COMMAND, SECTION_MAILBOX, SECTION_VALUE,
                    CommandSpec, MailboxBinding, MailboxSpec, Metadata, ValueSpec)

_VALUE = struct.Struct(">BBBBHHHHHHHH")
_COMMAND = struct.Struct(">BBBBIHHI")
_LEGACY_MAILBOX = struct.Struct(">IHHQ")

_SECTION_NAMES = {SECTION_VALUE: "value", SECTION_COMMAND: "command", SECTION_MAILBOX: "mailbox"}

_RDWR = MAILBOX_MODES["RDWR"]
_MODE_TOKENS = {**MAILBOX_MODES, "READONLY": 0x01, "RO": 0x01, "WRITEONLY": 0x02,
                "WO": 0x02, "RW": 0x03}
_U16 = 0xFFFF
_U32 = 0xFFFFFFFF


class RawSection(NamedTuple):
    """One metadata section as stored: its type, payload bytes and table entry count."""

    kind: int
    payload: bytes
    entry_count: int


def section_name(kind: int) -> str:
    return _SECTION_NAMES.get(kind, f"type {kind}")


# --------------------------------------------------------------------------- writing

def encode_metadata(metadata: Metadata) -> list[RawSection]:
    """Sections in file order: value, command, mailbox (each only if non-empty), then
    unknown sections unchanged.  Records are sorted by (group, id), mailboxes by target."""
    sections = []
    if metadata.values:
        sections.append(RawSection(SECTION_VALUE, _encode_values(metadata.values),
                                   len(metadata.values)))
    if metadata.commands:
        sections.append(RawSection(SECTION_COMMAND, _encode_commands(metadata.commands),
                                   len(metadata.commands)))
    if metadata.mailboxes:
        sections.append(RawSection(SECTION_MAILBOX, _encode_mailboxes(metadata.mailboxes),
                                   len(metadata.mailboxes)))
    for kind, payload in metadata.unknown_sections:
        check_uint("unknown metadata section type", kind, 32)
        if kind in _SECTION_NAMES:
            raise ImageError("field_out_of_range",
                             f"unknown_sections holds a section of known type {kind} "
                             f"({section_name(kind)}); put its entries in the metadata lists")
        sections.append(RawSection(kind, bytes(payload), 0))
    return sections


class _StringTable:
    """Collects a section's strings once each, after `base` bytes of records."""

    def __init__(self, section: str, base: int) -> None:
        self._section = section
        self._base = base
        self._offsets: dict[bytes, int] = {}
        self.blob = bytearray()

    def add(self, what: str, text: str | None) -> int:
        if text is None or text == "":
            return 0
        if not isinstance(text, str):
            raise ImageError("metadata_string_invalid", f"{what} must be a string, got {text!r}")
        try:
            raw = text.encode("utf-8")
        except UnicodeEncodeError as exc:
            raise ImageError("metadata_string_invalid",
                             f"{what} {text!r} cannot be encoded as UTF-8: {exc.reason}") from None
        if b"\0" in raw:
            raise ImageError("metadata_string_invalid", f"{what} {text!r} contains a NUL character")
        offset = self._offsets.get(raw)
        if offset is None:
            offset = self._base + len(self.blob)
            if offset > _U16:
                raise ImageError("metadata_too_large",
                                 f"{self._section} section: string {text!r} would start at offset "
                                 f"0x{offset:X}, beyond the 16-bit offset limit 0xFFFF")
            self._offsets[raw] = offset
            self.blob += raw + b"\0"
        return offset


def _reject_duplicates(keys: Iterable, describe) -> None:
    seen = set()
    for key in keys:
        if key in seen:
            raise ImageError("duplicate_metadata", f"{describe(key)} is declared twice")
        seen.add(key)


def _encode_values(values: list[ValueSpec]) -> bytes:
    for v in values:
        label = f"value ({v.group!r},{v.value!r})"
        for name in ("group", "value", "flags", "auth"):
            check_uint(f"{label} {name}", getattr(v, name), 8)
        for name in ("init_f16", "epsilon_f16", "min_f16", "max_f16", "persist_key"):
            check_uint(f"{label} {name}", getattr(v, name), 16)
    ordered = sorted(values, key=lambda v: (v.group, v.value))
    _reject_duplicates(((v.group, v.value) for v in ordered), lambda k: f"value {k}")
    strings = _StringTable("value", len(ordered) * _VALUE.size)
    records = bytearray()
    for v in ordered:
        label = f"value ({v.group},{v.value})"
        name = strings.add(f"{label} name", v.name)
        unit = strings.add(f"{label} unit", v.unit)
        group_name = strings.add(f"{label} group_name", v.group_name)
        records += _VALUE.pack(v.group, v.value, v.flags, v.auth, v.init_f16, name, unit,
                               v.epsilon_f16, v.min_f16, v.max_f16, v.persist_key, group_name)
    return bytes(records + strings.blob)


def _encode_commands(commands: list[CommandSpec]) -> bytes:
    for c in commands:
        label = f"command ({c.group!r},{c.cmd!r})"
        for name in ("group", "cmd", "flags", "auth"):
            check_uint(f"{label} {name}", getattr(c, name), 8)
        check_uint(f"{label} handler_offset", c.handler_offset, 32)
        check_uint(f"{label} reserved", c.reserved, 16)
    ordered = sorted(commands, key=lambda c: (c.group, c.cmd))
    _reject_duplicates(((c.group, c.cmd) for c in ordered), lambda k: f"command {k}")
    strings = _StringTable("command", len(ordered) * _COMMAND.size)
    records = bytearray()
    for c in ordered:
        label = f"command ({c.group},{c.cmd})"
        name = strings.add(f"{label} name", c.name)
        help_text = strings.add(f"{label} help", c.help)
        group_name = strings.add(f"{label} group_name", c.group_name)
        records += _COMMAND.pack(c.group, c.cmd, c.flags, c.auth, c.handler_offset, name,
                                 help_text, (c.reserved << 16) | group_name)
    return bytes(records + strings.blob)


def _encode_mailboxes(mailboxes: list[MailboxSpec]) -> bytes:
    entries = []
    for m in mailboxes:
        if not isinstance(m.target, str) or not m.target.strip():
            raise ImageError("field_out_of_range",
                             f"mailbox target must be a non-empty string, got {m.target!r}")
        label = f"mailbox {m.target!r}"
        entry = {"target": m.target,
                 "capacity": check_uint(f"{label} capacity", m.capacity, 32),
                 "mode_mask": check_uint(f"{label} mode_mask", m.mode_mask, 16)}
        if m.owner_pid is not None:
            entry["owner_pid"] = check_uint(f"{label} owner_pid", m.owner_pid, 32)
        if m.bindings:
            entry["bindings"] = [
                {"pid": check_uint(f"{label} binding pid", b.pid, 32),
                 "flags": check_uint(f"{label} binding flags", b.flags, 32)}
                for b in m.bindings]
        entries.append(entry)
    entries.sort(key=lambda e: e["target"])
    _reject_duplicates((e["target"] for e in entries), lambda t: f"mailbox {t!r}")
    document = {"mailboxes": entries, "version": 1}
    import json                     # (here: most images declare no mailboxes)
    return json.dumps(document, sort_keys=True, separators=(",", ":")).encode("ascii")


# --------------------------------------------------------------------------- reading

def decode_metadata(sections: Iterable[RawSection]) -> Metadata:
    """Decode sections (in table order); at most one section of each known type."""
    metadata = Metadata()
    seen: set[int] = set()
    for kind, payload, count in sections:
        if kind in seen and kind in _SECTION_NAMES:
            raise ImageError("duplicate_metadata",
                             f"the image has more than one {section_name(kind)} section")
        seen.add(kind)
        if kind == SECTION_VALUE:
            metadata.values = _decode_values(payload, count)
        elif kind == SECTION_COMMAND:
            metadata.commands = _decode_commands(payload, count)
        elif kind == SECTION_MAILBOX:
            metadata.mailboxes = _decode_mailboxes(payload, count)
        else:
            metadata.unknown_sections.append((kind, payload))
    return metadata


def _records_end(section: str, payload: bytes, count: int, size: int) -> int:
    end = count * size
    if end > len(payload):
        raise ImageError("metadata_truncated",
                         f"{section} section ({len(payload)} bytes) is too small for its "
                         f"{count} records of {size} bytes")
    return end


def _string_at(section: str, payload: bytes, offset: int, records_end: int) -> str | None:
    if offset == 0:
        return None
    if not records_end <= offset < len(payload):
        raise ImageError("metadata_string_out_of_range",
                         f"{section} section: string offset 0x{offset:X} is outside its string "
                         f"table (0x{records_end:X}..0x{len(payload):X})")
    end = payload.find(b"\0", offset)
    if end < 0:
        raise ImageError("metadata_string_unterminated",
                         f"{section} section: string at offset 0x{offset:X} has no terminating NUL")
    try:
        text = payload[offset:end].decode("utf-8")
    except UnicodeDecodeError:
        raise ImageError("metadata_string_invalid",
                         f"{section} section: string at offset 0x{offset:X} is not valid UTF-8"
                         ) from None
    return text or None


def _decode_values(payload: bytes, count: int) -> list[ValueSpec]:
    end = _records_end("value", payload, count, _VALUE.size)
    values = []
    for at in range(0, end, _VALUE.size):
        (group, value, flags, auth, init, name, unit, epsilon, minimum, maximum, persist_key,
         group_name) = _VALUE.unpack_from(payload, at)
        values.append(ValueSpec(
            group=group, value=value, flags=flags, auth=auth, init_f16=init,
            name=_string_at("value", payload, name, end),
            unit=_string_at("value", payload, unit, end),
            epsilon_f16=epsilon, min_f16=minimum, max_f16=maximum, persist_key=persist_key,
            group_name=_string_at("value", payload, group_name, end)))
    _reject_duplicates(((v.group, v.value) for v in values), lambda k: f"value {k}")
    return values


def _decode_commands(payload: bytes, count: int) -> list[CommandSpec]:
    end = _records_end("command", payload, count, _COMMAND.size)
    commands = []
    for at in range(0, end, _COMMAND.size):
        group, cmd, flags, auth, handler, name, help_text, last = _COMMAND.unpack_from(payload, at)
        commands.append(CommandSpec(
            group=group, cmd=cmd, flags=flags, auth=auth, handler_offset=handler,
            name=_string_at("command", payload, name, end),
            help=_string_at("command", payload, help_text, end),
            group_name=_string_at("command", payload, last & _U16, end),
            reserved=last >> 16))
    _reject_duplicates(((c.group, c.cmd) for c in commands), lambda k: f"command {k}")
    return commands


def _decode_mailboxes(payload: bytes, count: int) -> list[MailboxSpec]:
    body = payload.rstrip(b"\0")
    if body.lstrip()[:1] in (b"{", b"["):
        mailboxes = _decode_mailbox_json(body)
    else:
        mailboxes = _decode_mailbox_records(payload, count)
    _reject_duplicates((m.target for m in mailboxes), lambda t: f"mailbox {t!r}")
    return mailboxes


def _decode_mailbox_records(payload: bytes, count: int) -> list[MailboxSpec]:
    """The legacy binary encoding: 16-byte records, then the name strings."""
    end = _records_end("mailbox", payload, count, _LEGACY_MAILBOX.size)
    mailboxes = []
    for index, at in enumerate(range(0, end, _LEGACY_MAILBOX.size)):
        name, depth, mode, _reserved = _LEGACY_MAILBOX.unpack_from(payload, at)
        target = _string_at("mailbox", payload, name, end)
        if target is None:
            raise ImageError("mailbox_metadata_invalid", f"mailbox record {index} has no name")
        mailboxes.append(MailboxSpec(target=target, capacity=depth, mode_mask=mode or _RDWR))
    return mailboxes


def _invalid(message: str) -> ImageError:
    return ImageError("mailbox_metadata_invalid", message)


def _decode_mailbox_json(body: bytes) -> list[MailboxSpec]:
    import json                     # (here: most images declare no mailboxes)
    try:
        document = json.loads(body.decode("utf-8"))
    except UnicodeDecodeError:
        raise _invalid("mailbox metadata JSON is not valid UTF-8") from None
    except RecursionError:
        raise _invalid("mailbox metadata JSON is nested too deeply") from None
    except ValueError as exc:
        raise _invalid(f"mailbox metadata JSON is invalid: {exc}") from None
    if isinstance(document, dict):
        version = document.get("version", 1)
        if not _is_int(version) or version != 1:
            raise _invalid(f"mailbox metadata JSON version {version!r} is not supported (only 1)")
        entries = document.get("mailboxes", document.get("entries", []))
    elif isinstance(document, list):
        entries = document
    else:
        raise _invalid("mailbox metadata JSON must be an object or an array, "
                       f"not {type(document).__name__}")
    if not isinstance(entries, list):
        raise _invalid(f"mailbox metadata entries must be a list, not {type(entries).__name__}")
    return [_mailbox_from_json(index, entry) for index, entry in enumerate(entries)]


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _first_present(entry: dict, *keys: str) -> object:
    for key in keys:
        if entry.get(key) is not None:
            return entry[key]
    return None


def _json_uint(label: str, key: str, value: object, limit: int) -> int:
    if not _is_int(value) or not 0 <= value <= limit:
        raise _invalid(f"{label} {key} must be an integer in 0..0x{limit:X}, got {value!r}")
    return value


def _mailbox_from_json(index: int, entry: object) -> MailboxSpec:
    if not isinstance(entry, dict):
        raise _invalid(f"mailbox metadata entry {index} must be an object, "
                       f"not {type(entry).__name__}")
    target = _first_present(entry, "target", "name")
    if not isinstance(target, str) or not target.strip():
        raise _invalid(f"mailbox metadata entry {index} has no target (got {target!r})")
    label = f"mailbox {target!r}"
    capacity = _first_present(entry, "capacity", "queue_depth")
    mode = _first_present(entry, "mode_mask", "mode", "flags")
    owner_pid = entry.get("owner_pid")
    bindings = entry.get("bindings")
    if bindings is None:
        bindings = []
    if not isinstance(bindings, list):
        raise _invalid(f"{label} bindings must be a list, not {type(bindings).__name__}")
    return MailboxSpec(
        target=target,
        capacity=0 if capacity is None else _json_uint(label, "capacity", capacity, _U32),
        mode_mask=_RDWR if mode is None else _mode_from_json(label, mode),
        owner_pid=None if owner_pid is None else _json_uint(label, "owner_pid", owner_pid, _U32),
        bindings=[_binding_from_json(label, i, b) for i, b in enumerate(bindings)])


def _mode_from_json(label: str, mode: object) -> int:
    if isinstance(mode, str):
        return parse_mailbox_mode(mode)
    return _json_uint(label, "mode_mask", mode, _U16) or _RDWR


def _binding_from_json(label: str, index: int, binding: object) -> MailboxBinding:
    if not isinstance(binding, dict):
        raise _invalid(f"{label} binding {index} must be an object, not {type(binding).__name__}")
    if binding.get("pid") is None:
        raise _invalid(f"{label} binding {index} has no pid")
    flags = binding.get("flags")
    return MailboxBinding(
        pid=_json_uint(f"{label} binding {index}", "pid", binding["pid"], _U32),
        flags=0 if flags is None else _json_uint(f"{label} binding {index}", "flags", flags, _U32))


def parse_mailbox_mode(mode: int | str) -> int:
    """A mailbox mode as an integer mask or tokens such as "rdwr|fanout_drop|tap"
    (`|` or `,` separated, case-insensitive); 0 or no tokens mean RDWR."""
    if _is_int(mode):
        return _json_uint("mailbox", "mode_mask", mode, _U16) or _RDWR
    if not isinstance(mode, str):
        raise _invalid(f"mailbox mode must be an integer or a string, got {mode!r}")
    mask = 0
    for token in mode.replace(",", "|").split("|"):
        token = token.strip()
        if not token:
            continue
        bits = _MODE_TOKENS.get(token.upper())
        if bits is None:
            known = ", ".join(sorted(_MODE_TOKENS))
            raise ImageError("unknown_mailbox_mode",
                             f"unknown mailbox mode {token!r} in {mode!r} (known: {known})")
        mask |= bits
    return mask or _RDWR
