"""Code locations a front end derives from the executive's answers.

`function_body` is where gdb's `break NAME` lands: where the function's body begins,
past its prologue, as the compiler recorded it (its entry when there is no record: an
MVASM function, a C one built without -g).  The executive places a breakpoint set by a
function's name there too.  For any client with an awaitable `request(cmd, **fields)`.
"""
from __future__ import annotations

from typing import Any

from .errors import ProtocolError


async def function_body(client: Any, pid: int, name: str) -> int:
    """The address of `name`'s body (ProtocolError `unknown_symbol`/`no_symbols`)."""
    symbol = (await client.request("symbols.lookup", pid=pid, name=name))["symbol"]
    if symbol.get("space") != "code":
        raise ProtocolError("unknown_symbol", f"{name} is not a function: it is data")
    return symbol.get("body", symbol["address"])
