"""C/LLVM symbol names to MVASM names.

MVASM names are letters, digits, `_`, `.` and `$` (not starting with a digit), and may
not be a register name or one of the expression functions.  C names are kept as they
are; the few that clash get a `$` prefix, and characters outside the set (only in
quoted LLVM names) are written as `$XX` hex, so the mapping is one-to-one and every
module computes the same name for the same symbol.
"""
from __future__ import annotations

_OK = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.")
_RESERVED = {f"r{n}" for n in range(16)} | {"sp", "lo16", "hi16", "off16"}


def symbol_name(name: str) -> str:
    out = []
    for ch in name:
        if ch in _OK:
            out.append(ch)
        else:
            out.extend(f"${b:02X}" for b in ch.encode("utf-8"))
    text = "".join(out)
    if not text or text[0].isdigit() or text.lower() in _RESERVED:
        text = "$" + text
    return text
