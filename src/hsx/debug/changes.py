"""What changed in a watched C object, said as a person would: the innermost element or
field that holds every changed byte, with its value before and after.

A data breakpoint on `stock` (an array of structs) that stops because one quantity
went from 3 to 7 reports `{"what": "stock[1].qty", "old": "3", "new": "7"}` rather
than 80 bytes of hex.  Values are formatted as `evaluate` formats them.
"""
from __future__ import annotations

import re
from typing import Any

from .ctype import CType, Formatter

# A name followed by indexing and member access: a suffix needs no parentheses.
_POSTFIX = re.compile(r"[A-Za-z_$][\w$]*(?:\[[^\[\]]*\]|\.\w+|->\w+)*")


def describe_change(t: CType, name: str, old: bytes, new: bytes,
                    formatter: Formatter) -> dict[str, Any] | None:
    """`{what, old, new}` for the object `name` of type `t` whose bytes went from `old`
    to `new` (both of `t`'s size); None when nothing differs."""
    changed = [i for i, (a, b) in enumerate(zip(old, new)) if a != b]
    if not changed:
        return None
    low, high = changed[0], changed[-1] + 1
    what, part, start = name, t, 0
    while (inner := _part_holding(part, low - start, high - start)) is not None:
        suffix, part, offset = inner
        what = (what if _POSTFIX.fullmatch(what) else f"({what})") + suffix
        start += offset
    end = start + part.strip().size if part.strip().size else len(old)
    return {"what": what, "old": formatter.summary(part, old[start:end]),
            "new": formatter.summary(part, new[start:end])}


def _part_holding(t: CType, low: int, high: int) -> tuple[str, CType, int] | None:
    """The element or field of `t` that holds bytes low..high-1 (offsets in `t`), as
    (the C suffix naming it, its type, its offset); None when no single one does (or
    `t` is a scalar, a union, or the bytes span a bit-field)."""
    s = t.strip()
    if s.kind == "array" and s.target is not None:
        size = s.target.strip().size
        index = low // size if size else -1
        if size and (high - 1) // size == index and (s.count is None or index < s.count):
            return f"[{index}]", s.target, index * size
    elif s.kind == "struct":
        for f in s.fields:
            size = f.type.strip().size
            if f.bit_size is None and f.offset <= low and high <= f.offset + size:
                return f".{f.name}", f.type, f.offset
    return None
