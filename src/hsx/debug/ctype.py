"""C types of a -g build, as a debugger needs them: names, sizes, fields, and turning
bytes into values and values into the text people read.

Types come from the `.sym` `types` table (an index per type, see hsx.image.sym); the
expression evaluator also makes types of its own (literals, casts, `&x`). Typedefs and
qualifiers are kept for names and skipped (`strip`) for everything else.
"""
from __future__ import annotations

import math
import struct
from dataclasses import dataclass, field
from typing import Any, Callable

from hsx.isa.f16 import f16_to_float

CHAR_ENCODINGS = ("signed_char", "unsigned_char")
PREVIEW_CHARS = 80          # a struct/array summary is cut after this many characters
STRING_PREVIEW = 64         # bytes of a char * shown


@dataclass(eq=False)
class CType:
    kind: str                         # base, pointer, struct, union, array, enum, function,
    size: int                         # typedef, const, volatile, void
    name: str | None = None
    encoding: str | None = None       # base types: signed, unsigned, signed_char,
    target: CType | None = None       # unsigned_char, boolean, float
    count: int | None = None          # arrays (None: unknown length)
    fields: list[Field] = field(default_factory=list)
    enumerators: list[tuple[str, int]] = field(default_factory=list)

    def strip(self) -> CType:
        """Without typedefs and qualifiers."""
        t = self
        while t.kind in ("typedef", "const", "volatile") and t.target is not None:
            t = t.target
        return t

    @property
    def display(self) -> str:
        """The C spelling: `int`, `struct point`, `char *`, `int [4]`, `color_t`."""
        k = self.kind
        if k == "typedef":
            return self.name or self.strip().display
        if k in ("const", "volatile"):
            return f"{k} {self.target.display if self.target else 'void'}"
        if k == "pointer":
            inner = self.target.strip() if self.target else None
            if inner is not None and inner.kind == "function":
                return "function *"
            base = self.target.display if self.target else "void"
            return f"{base} *" if not base.endswith("*") else f"{base}*"
        if k == "array":
            element = self.target.display if self.target else "?"
            return f"{element} [{'' if self.count is None else self.count}]"
        if k in ("struct", "union", "enum"):
            return f"{k} {self.name}" if self.name else f"{k} <anonymous>"
        if k == "function":
            return "function"
        return self.name or k

    @property
    def is_integer(self) -> bool:
        t = self.strip()
        return (t.kind == "base" and t.encoding != "float") or t.kind == "enum"

    @property
    def is_float(self) -> bool:
        t = self.strip()
        return t.kind == "base" and t.encoding == "float"

    @property
    def is_pointer(self) -> bool:
        return self.strip().kind == "pointer"

    @property
    def is_aggregate(self) -> bool:
        return self.strip().kind in ("struct", "union", "array")

    @property
    def signed(self) -> bool:
        t = self.strip()
        if t.kind == "enum":
            return any(value < 0 for _, value in t.enumerators)
        return t.encoding in ("signed", "signed_char")


@dataclass(eq=False)
class Field:
    name: str
    type: CType
    offset: int
    bit_offset: int | None = None
    bit_size: int | None = None


def base(name: str, size: int, encoding: str) -> CType:
    return CType("base", size, name, encoding)


INT = base("int", 4, "signed")
UINT = base("unsigned int", 4, "unsigned")
LONG_LONG = base("long long", 8, "signed")
ULONG_LONG = base("unsigned long long", 8, "unsigned")
CHAR = base("char", 1, "signed_char")
BOOL = base("_Bool", 1, "boolean")
FLOAT = base("float", 4, "float")
DOUBLE = base("double", 8, "float")
VOID = CType("void", 0, "void")

# The spellings a cast may use for base types (ILP32: long is 32 bits; long double is
# double, as docs/c-compiler.md says).
BASE_TYPES = {
    "char": CHAR, "signed char": base("signed char", 1, "signed_char"),
    "unsigned char": base("unsigned char", 1, "unsigned_char"),
    "short": base("short", 2, "signed"), "unsigned short": base("unsigned short", 2, "unsigned"),
    "int": INT, "unsigned": UINT, "unsigned int": UINT, "signed": INT, "signed int": INT,
    "long": base("long", 4, "signed"), "unsigned long": base("unsigned long", 4, "unsigned"),
    "long long": LONG_LONG, "unsigned long long": ULONG_LONG,
    "float": FLOAT, "double": DOUBLE, "long double": DOUBLE, "_Bool": BOOL, "bool": BOOL,
    "void": VOID,
}


def pointer_to(target: CType) -> CType:
    return CType("pointer", 4, target=target)


class TypeTable:
    """The `.sym` types of one build as `CType`s (built lazily; shared structure, so a
    self-referential `struct node *next` is fine)."""

    def __init__(self, raw: list[dict]) -> None:
        self.raw = raw
        self._made: dict[int, CType] = {}

    def get(self, index: int | None) -> CType:
        if index is None or not 0 <= index < len(self.raw):
            return VOID
        made = self._made.get(index)
        if made is not None:
            return made
        r = self.raw[index]
        t = self._made[index] = CType(r.get("kind", "void"), int(r.get("size") or 0),
                                      r.get("name"), r.get("encoding"))
        ref = r.get("pointee", r.get("element", r.get("type", r.get("base"))))
        if ref is not None:
            t.target = self.get(ref)
        if t.kind == "array":
            t.count = r.get("count")
        for f in r.get("fields") or []:
            t.fields.append(Field(str(f.get("name")), self.get(f.get("type")),
                                  int(f.get("offset") or 0), f.get("bit_offset"),
                                  f.get("bit_size")))
        t.enumerators = [(str(e["name"]), int(e["value"])) for e in r.get("enumerators") or []]
        return t

    def named(self, kind: str, name: str) -> CType | None:
        """`struct NAME`, `union NAME`, `enum NAME`, or a typedef NAME ("typedef")."""
        for index, r in enumerate(self.raw):
            if r.get("kind") == kind and r.get("name") == name:
                return self.get(index)
        return None


# --- bytes <-> values ------------------------------------------------------------------

def decode(t: CType, data: bytes) -> Any:
    """A scalar's value: int (signed per type), float, or bool for _Bool."""
    s = t.strip()
    if s.kind == "base" and s.encoding == "float":
        if s.size == 4:
            return struct.unpack("<f", data[:4])[0]
        if s.size == 2:
            return f16_to_float(int.from_bytes(data[:2], "little"))
        return struct.unpack("<d", data[:8])[0]
    value = int.from_bytes(data[:s.size], "little")
    if t.signed and s.size and value >> (8 * s.size - 1):
        value -= 1 << (8 * s.size)
    return value


def encode(t: CType, value: int | float) -> bytes:
    """The bytes of a scalar value of type `t` (integers wrap, as C conversions do)."""
    s = t.strip()
    if s.kind == "base" and s.encoding == "float":
        if s.size == 4:
            try:
                return struct.pack("<f", float(value))
            except OverflowError:
                return struct.pack("<f", math.copysign(math.inf, value))
        return struct.pack("<d", float(value))
    if isinstance(value, float):
        value = 0 if not math.isfinite(value) else math.trunc(value)
    size = s.size or 4
    return (int(value) & ((1 << (8 * size)) - 1)).to_bytes(size, "little")


# --- formatting --------------------------------------------------------------------------

def format_float(value: float, size: int) -> str:
    """The shortest text that reads back as the same float (binary32 for size 4)."""
    if math.isnan(value):
        return "nan"
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    if size == 4:
        for digits in range(1, 10):
            text = f"{value:.{digits}g}"
            if struct.unpack("<f", struct.pack("<f", float(text)))[0] == value:
                return _tidy(text)
    return _tidy(repr(value))


def _tidy(text: str) -> str:
    return text if any(c in text for c in ".einn") else text + ".0"


def format_char(value: int) -> str:
    byte = value & 0xFF
    escapes = {0: "\\0", 7: "\\a", 8: "\\b", 9: "\\t", 10: "\\n", 11: "\\v", 12: "\\f",
               13: "\\r", 39: "\\'", 92: "\\\\"}
    if byte in escapes:
        shown = escapes[byte]
    elif 32 <= byte < 127:
        shown = chr(byte)
    else:
        shown = f"\\x{byte:02x}"
    return f"{value} '{shown}'"


def c_string(data: bytes) -> str:
    """Bytes up to the first NUL as a C string literal."""
    text = data.split(b"\0", 1)[0]
    out = []
    for byte in text:
        if byte == 34:
            out.append('\\"')
        elif byte == 92:
            out.append("\\\\")
        elif 32 <= byte < 127:
            out.append(chr(byte))
        else:
            out.append({10: "\\n", 9: "\\t", 13: "\\r"}.get(byte, f"\\x{byte:02x}"))
    more = "" if b"\0" in data else "..."
    return '"' + "".join(out) + '"' + more


class Formatter:
    """Turns typed bytes into text; `read(addr, n)` reads task memory (None if it
    cannot), `symbol(addr, space)` names an address ("counter+4") or None."""

    def __init__(self, read: Callable[[int, int], bytes | None],
                 symbol: Callable[[int, str], str | None]) -> None:
        self.read, self.symbol = read, symbol

    def scalar(self, t: CType, data: bytes) -> str:
        s = t.strip()
        if s.kind == "pointer":
            return self.pointer(s, int.from_bytes(data[:4], "little"))
        if s.kind == "enum":
            value = decode(t, data)
            for name, number in s.enumerators:
                if number == value:
                    return name
            return f"{value}"
        value = decode(t, data)
        if s.encoding == "boolean":
            return "true" if value == 1 else "false" if value == 0 else f"true ({value})"
        if s.encoding == "float":
            return format_float(value, s.size)
        if s.encoding in CHAR_ENCODINGS and s.size == 1:
            return format_char(value)
        return str(value)

    def pointer(self, t: CType, addr: int) -> str:
        text = f"0x{addr:08X}"
        if addr == 0:
            return text + " (NULL)"
        target = t.target.strip() if t.target else VOID
        if target.kind == "function":
            name = self.symbol(addr, "code")
            return f"{text} <{name}>" if name else text
        name = self.symbol(addr, "data")
        if name:
            text += f" <{name}>"
        if target.kind == "base" and target.encoding in CHAR_ENCODINGS:
            data = self.read(addr, STRING_PREVIEW)
            if data is not None:
                text += " " + c_string(data)
        return text

    def summary(self, t: CType, data: bytes, depth: int = 0) -> str:
        """One line for a value of any type; aggregates are previewed and cut short."""
        s = t.strip()
        if s.kind == "array":
            element = s.target or VOID
            e = element.strip()
            if e.kind == "base" and e.encoding in CHAR_ENCODINGS:
                return c_string(data)
            if depth > 1:
                return "[...]"
            parts, size = [], max(e.size, 1)
            for i in range(min(s.count or 0, len(data) // size)):
                parts.append(self.summary(element, data[i * size:(i + 1) * size], depth + 1))
                if sum(map(len, parts)) > PREVIEW_CHARS:
                    parts.append("...")
                    break
            return "[" + ", ".join(parts) + "]"
        if s.kind in ("struct", "union"):
            if depth > 1:
                return "{...}"
            parts = []
            for f in s.fields:
                parts.append(f"{f.name} = {self.summary(f.type, field_bytes(f, data), depth + 1)}"
                             if f.bit_size is None else
                             f"{f.name} = {bitfield_value(f, data)}")
                if sum(map(len, parts)) > PREVIEW_CHARS:
                    parts.append("...")
                    break
            return "{" + ", ".join(parts) + "}"
        return self.scalar(t, data)


def field_bytes(f: Field, data: bytes) -> bytes:
    size = f.type.strip().size
    return data[f.offset:f.offset + size]


def bitfield_span(f: Field) -> int:
    """Bytes from the field's storage offset that hold all of its bits."""
    return ((f.bit_offset or 0) + f.bit_size + 7) // 8


def bitfield_value(f: Field, data: bytes) -> int:
    """A bit-field's value (sign-extended for signed types); bit_offset counts from the
    lowest bit of the storage unit at `offset` (little-endian)."""
    storage = int.from_bytes(data[f.offset:f.offset + bitfield_span(f)], "little")
    value = (storage >> (f.bit_offset or 0)) & ((1 << f.bit_size) - 1)
    if f.type.signed and value >> (f.bit_size - 1):
        value -= 1 << f.bit_size
    return value
