"""The event loop `hsx execd` runs on: uvloop where it is installed, else asyncio's own.

uvloop (libuv under the asyncio API) halves what the loop itself costs per request: a
bare echo server answers a line in ~0.017 ms here against ~0.035 ms on the standard
loop (benchmarks/README.md, "The daemon's own overhead").  It is a dependency on the
platforms it has wheels for (pyproject.toml); elsewhere (Windows), or with
`HSX_EVENT_LOOP=asyncio`, the daemon runs on the standard library's loop, which every
part of the server also supports (the tests' embedded servers use it).
"""
from __future__ import annotations

import asyncio
import os
from typing import Any, Coroutine, TypeVar

T = TypeVar("T")
ENV = "HSX_EVENT_LOOP"          # "asyncio" forces the standard loop, "uvloop" requires it


def loop_name() -> str:
    """Which loop `run` will use: "uvloop" or "asyncio" (ValueError, saying why: an
    HSX_EVENT_LOOP setting that cannot be honoured)."""
    wanted = os.environ.get(ENV, "").strip().lower()
    if wanted not in ("", "auto", "asyncio", "uvloop"):
        raise ValueError(f"{wanted!r} is not asyncio, uvloop or auto")
    if wanted == "asyncio":
        return "asyncio"
    try:
        import uvloop  # noqa: F401
    except ImportError:
        if wanted == "uvloop":
            raise ValueError("uvloop is not installed here") from None
        return "asyncio"
    return "uvloop"


def run(main: Coroutine[Any, Any, T], loop: str | None = None) -> T:
    """`asyncio.run(main)` on `loop` ("uvloop" or "asyncio"; None: `loop_name()`)."""
    if (loop or loop_name()) == "uvloop":
        import uvloop
        with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
            return runner.run(main)
    return asyncio.run(main)
