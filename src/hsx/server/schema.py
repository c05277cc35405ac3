"""Typed argument schemas: every request field is checked once, at the boundary.

Each command declares the fields it reads (`group.command(..., args={...})`); the
dispatcher checks a request against that schema before the handler runs, so a value
outside its domain (a NaN rate, a negative count, a 300-byte path component, a list
where a number belongs) is a `bad_argument` reply naming the field and the accepted
range, and a handler only ever sees values in range.  `Call` refuses to read a field
the command did not declare, so a new field cannot skip the check either.

A schema maps field names to `Field`s; `"count|steps"` declares one field under two
names (the second is an older spelling).  Values come back normalised: integers given
as text ("0x4000") are ints, booleans given as "on"/"off" are bools.  `markdown()`
renders every command's arguments for docs/protocol.md.

Hand-written rather than msgspec/pydantic: the protocol accepts older spellings, text
integers and "either a number or a name" fields, and the messages must name the field
and its range in the protocol's own words; the whole checker is smaller than the
adapters a library would need.
"""
from __future__ import annotations

import base64
import binascii
import math
from dataclasses import dataclass
from typing import Any, Iterable, Mapping

from .errors import RequestError, bad_argument

MAX_PID = 0xFFFF_FFFF
MAX_U32 = 0xFFFF_FFFF
MAX_TEXT = 4096                  # names, targets, expressions: characters
MAX_PATH = 4096                  # bytes of a whole path (PATH_MAX)
MAX_PATH_COMPONENT = 255         # bytes of one path component (NAME_MAX)
MAX_LIST = 1024
MAX_DEPTH = 8                    # nesting of objects inside a request's arguments
ENVELOPE = frozenset({"cmd", "id", "version", "session", "token", "op", "action"})


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


class Field:
    """One argument's type and domain.  `check` returns the normalised value or raises
    `bad_argument`; `describe` is the domain in words, for errors and the docs."""

    def check(self, name: str, value: Any) -> Any:
        raise NotImplementedError

    def describe(self) -> str:
        raise NotImplementedError

    def refuse(self, name: str, value: Any) -> Exception:
        return bad_argument(f"'{name}' must be {self.describe()}, not {_shown(value)}")


def _bound(value: float) -> str:
    if isinstance(value, float) and not value.is_integer():
        return f"{value:g}"
    value = int(value)
    return f"0x{value:X}" if value >= 0x10000 and value & (value + 1) == 0 else str(value)


@dataclass(frozen=True)
class Int(Field):
    """A whole number (JSON number, or text such as "0x4000"), `lo`..`hi` inclusive."""

    lo: int = 0
    hi: int = MAX_U32

    def check(self, name: str, value: Any) -> int:
        if type(value) is int and self.lo <= value <= self.hi:
            return value                                   # the common case
        if isinstance(value, str) and len(value) <= 64:
            try:
                value = int(value.strip(), 0)
            except ValueError:
                raise self.refuse(name, value) from None
        if isinstance(value, float) and value.is_integer() and abs(value) < 2 ** 53:
            value = int(value)
        if isinstance(value, bool) or not isinstance(value, int) or not (
                self.lo <= value <= self.hi):
            raise self.refuse(name, value)
        return value

    def describe(self) -> str:
        if self.lo == self.hi:
            return _bound(self.lo)
        return f"an integer {_bound(self.lo)}..{_bound(self.hi)}"


@dataclass(frozen=True)
class Num(Field):
    """A finite number `lo`..`hi` (text such as "1.5" too when `text`)."""

    lo: float = 0.0
    hi: float = 1e9
    text: bool = False

    def check(self, name: str, value: Any) -> float:
        if self.text and isinstance(value, str) and len(value) <= 64:
            try:
                value = float(value)
            except ValueError:
                raise self.refuse(name, value) from None
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise self.refuse(name, value)
        if isinstance(value, int) and not (-2 ** 1023 < value < 2 ** 1023):
            raise self.refuse(name, value)
        number = float(value)
        if not math.isfinite(number) or not self.lo <= number <= self.hi:
            raise self.refuse(name, value)
        return number

    def describe(self) -> str:
        return f"a number {_bound(self.lo)}..{_bound(self.hi)}"


@dataclass(frozen=True)
class Str(Field):
    """Text of at most `max_len` characters (one of `choices` when given)."""

    max_len: int = MAX_TEXT
    choices: tuple[str, ...] = ()
    empty: bool = True

    def check(self, name: str, value: Any) -> str:
        if not isinstance(value, str) or len(value) > self.max_len or (
                not self.empty and not value.strip()):
            raise self.refuse(name, value)
        if self.choices and value not in self.choices:
            raise self.refuse(name, value)
        return value

    def describe(self) -> str:
        if self.choices:
            return "one of " + ", ".join(f'"{c}"' for c in self.choices)
        what = "text" if self.empty else "non-empty text"
        return f"{what} of at most {self.max_len} characters"


@dataclass(frozen=True)
class FilePath(Field):
    """A host path: at most 4096 bytes, each component at most 255 bytes, no NUL."""

    def check(self, name: str, value: Any) -> str:
        if not isinstance(value, str) or not value or "\0" in value:
            raise self.refuse(name, value)
        try:
            encoded = value.encode("utf-8")
        except UnicodeEncodeError:
            raise self.refuse(name, value) from None
        if len(encoded) > MAX_PATH or any(len(part) > MAX_PATH_COMPONENT
                                          for part in encoded.split(b"/")):
            raise self.refuse(name, value)
        return value

    def describe(self) -> str:
        return (f"a path of at most {MAX_PATH} bytes, each component at most "
                f"{MAX_PATH_COMPONENT} bytes")


@dataclass(frozen=True)
class Bool(Field):
    """true/false (also 0/1 and the text "true"/"false"/"on"/"off"/"1"/"0")."""

    def check(self, name: str, value: Any) -> bool:
        if isinstance(value, bool):
            return value
        if isinstance(value, int) and value in (0, 1):
            return bool(value)
        if isinstance(value, str) and value.lower() in ("true", "false", "on", "off", "1", "0"):
            return value.lower() in ("true", "on", "1")
        raise self.refuse(name, value)

    def describe(self) -> str:
        return "a boolean"


@dataclass(frozen=True)
class Encoded(Field):
    """Bytes as hex or base64 text, at most `max_bytes` once decoded."""

    encoding: str = "hex"
    max_bytes: int = 1 << 16

    def check(self, name: str, value: Any) -> str:
        limit = 2 * self.max_bytes if self.encoding == "hex" else (self.max_bytes + 2) // 3 * 4
        if not isinstance(value, str) or len(value) > limit:
            raise self.refuse(name, value)
        try:
            data = (bytes.fromhex(value) if self.encoding == "hex"
                    else base64.b64decode(value, validate=True))
        except (binascii.Error, ValueError):
            raise self.refuse(name, value) from None
        if len(data) > self.max_bytes:
            raise self.refuse(name, value)
        return value

    def describe(self) -> str:
        return f"{self.encoding} text of at most {self.max_bytes} bytes"


@dataclass(frozen=True)
class ListOf(Field):
    """A list of at most `max_items` items (a single item too when `single`)."""

    item: Field
    max_items: int = MAX_LIST
    single: bool = True
    empty: bool = True

    def check(self, name: str, value: Any) -> list[Any]:
        items = value if isinstance(value, list) else [value] if self.single else None
        if items is None or len(items) > self.max_items or (not self.empty and not items):
            raise self.refuse(name, value)
        try:
            return [self.item.check(name, item) for item in items]
        except RequestError:
            raise self.refuse(name, value) from None

    def describe(self) -> str:
        single = f"{self.item.describe()} or " if self.single else ""
        return f"{single}a list of at most {self.max_items} of them"


@dataclass(frozen=True)
class OneOf(Field):
    """The first of several forms that accepts the value (e.g. an address or a name)."""

    forms: tuple[Field, ...]

    def check(self, name: str, value: Any) -> Any:
        for form in self.forms:
            try:
                return form.check(name, value)
            except RequestError:
                continue
        raise self.refuse(name, value)

    def describe(self) -> str:
        return " or ".join(form.describe() for form in self.forms)


@dataclass(frozen=True)
class Obj(Field):
    """A nested object with its own schema."""

    fields: Mapping[str, Field]

    def check(self, name: str, value: Any) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.refuse(name, value)
        return Schema(self.fields).apply(value, prefix=f"{name}.")

    def describe(self) -> str:
        return "an object {" + ", ".join(self.fields) + "}"


class Schema:
    """The fields of one command, by every name they accept."""

    def __init__(self, fields: Mapping[str, Field]) -> None:
        self.fields: dict[str, Field] = {}
        self.spellings: list[tuple[str, Field]] = []
        for names, field in fields.items():
            self.spellings.append((names, field))
            for name in names.split("|"):
                self.fields[name] = field
        self._known = frozenset(self.fields) | ENVELOPE    # what a request may carry
        self._order = tuple(self.fields)                    # the order fields are checked in

    @property
    def names(self) -> frozenset[str]:
        return frozenset(self.fields)

    def apply(self, args: dict[str, Any], prefix: str = "") -> dict[str, Any]:
        """A copy of `args` with every declared field checked and normalised (absent
        and null fields stay as they are; undeclared fields are left out)."""
        fields = self.fields
        if not prefix and args.keys() <= self._known:   # nothing to leave out (the common
            checked = dict(args)                        # case): check the declared fields
            for key in filter(checked.__contains__, self._order):      # present (in C)
                value = checked[key]
                if value is not None:
                    checked[key] = fields[key].check(key, value)
            return checked
        checked = {}
        for key, value in args.items():
            if key not in fields and not prefix and key in ENVELOPE:
                checked[key] = value
        for key in filter(args.__contains__, self._order):
            value = args[key]
            checked[key] = None if value is None else fields[key].check(prefix + key, value)
        return checked


# Fields many commands share.
PID = Int(0, MAX_PID)
ADDR = Int(0, MAX_U32)
COUNT = Int(0, MAX_U32)
NAME = Str(256)
LOCATION = OneOf((ADDR, Str(MAX_TEXT, empty=False)))


def markdown(commands: Iterable[Any]) -> str:
    """The argument table of docs/protocol.md, one row per field of every command."""
    lines = ["| command | argument | accepted values |", "| --- | --- | --- |"]
    for command in sorted(commands, key=lambda c: c.name):
        schema = command.schema
        if schema is None:
            continue
        if not schema.spellings:
            lines.append(f"| `{command.name}` | (none) | |")
        for names, field in schema.spellings:
            shown = " / ".join(f"`{n}`" for n in names.split("|"))
            lines.append(f"| `{command.name}` | {shown} | {field.describe()} |")
    return "\n".join(lines) + "\n"
