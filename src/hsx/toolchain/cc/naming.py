"""C/LLVM symbol names to MVASM names.

MVASM names are letters, digits, `_`, `.` and `$` (not starting with a digit), and may
not be a register name or one of the expression functions.  C names are kept as they
are; the few that clash get a `$` prefix, and characters outside the set (only in
quoted LLVM names) are written as `$XX` hex, so the mapping is one-to-one and every
module computes the same name for the same symbol.  Basic blocks get `.L` labels,
which are never C names.
"""
from __future__ import annotations

_OK = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.")
_RESERVED = {f"r{n}" for n in range(16)} | {"sp", "lo16", "hi16", "off16"}


def symbol_name(name: str) -> str:
    if name.startswith(".L"):                   # already a block label (block_label)
        return name
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


def block_label(function: str, index: int) -> str:
    """The label of basic block `index` of `function` (also the value of its
    `blockaddress`, the address of a C label)."""
    return f".L{symbol_name(function)}.b{index}"
