"""Reading guest arguments: C strings and buffers, bounds-checked like loads."""
from __future__ import annotations

from hsx.vm import Context

MAX_STRING = 256


def read_cstring(ctx: Context, addr: int, limit: int = MAX_STRING) -> bytes:
    """The NUL-terminated string at `addr` (at most `limit` bytes are looked at).

    A string that runs off the end of memory faults like a load would; one longer than
    `limit` is cut at `limit`.
    """
    end = min(addr + limit, ctx.layout.mem_size)
    ctx.check_guest_range(addr, max(1, end - addr))
    data = ctx.mem[addr:end]
    nul = data.find(0)
    return bytes(data if nul < 0 else data[:nul])
