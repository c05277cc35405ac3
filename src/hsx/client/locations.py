"""Code locations a front end derives from the executive's answers.

`function_body` is where gdb's `break NAME` lands: the first instruction of the
function's first source line after its prologue (the entry itself when the function
has no lines).  For any client with an awaitable `request(cmd, **fields)`.
"""
from __future__ import annotations

from typing import Any

PROLOGUE_SCAN = 16               # instructions searched for the end of a prologue


async def function_body(client: Any, pid: int, name: str) -> int:
    """The address of `name`'s body (ProtocolError `unknown_symbol`/`no_symbols`)."""
    reply = await client.request("disasm.read", pid=pid, addr=name, count=PROLOGUE_SCAN,
                                 mode="from")
    instructions = reply["disasm"]["instructions"]
    first = instructions[0]
    if (first.get("mnemonic"), first.get("operands")) != ("PUSH", "R14"):
        return first["pc"]      # no prologue first (no frame, or a quick path first)
    for instruction in instructions[1:]:
        if instruction.get("symbol") != first.get("symbol"):
            break
        if instruction.get("line") is not None and instruction["line"] != first.get("line"):
            return instruction["pc"]
    return first["pc"]
