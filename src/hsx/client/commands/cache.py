"""What completion offers from the executive -- PIDs, app names, symbols, variables,
values, commands, mailboxes, breakpoint and watch ids -- kept fresh in the background
so a Tab need not wait for the network, or read on demand by a front end that may wait
(`ready`: the shell's Tab, the debug adapter's completions request)."""
from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

from ..aio import AsyncClient
from ..errors import ConnectionClosed, ProtocolError

FRESH_S = 2.0


class CompletionCache:
    def __init__(self, client: AsyncClient) -> None:
        self.client = client
        self._items: dict[str, list[tuple[str, str]]] = {}
        self._symbols: dict[int, dict[str, list[tuple[str, str]]]] = {}
        self._variables: dict[int, list[tuple[str, str]]] = {}    # where each task stopped
        self._stamp = 0.0
        self._refreshing: asyncio.Task | None = None

    def items(self, what: str, pid: int | None) -> list[tuple[str, str]]:
        self.refresh_soon()
        if what == "expr":
            return self._variables.get(pid, []) if pid is not None else []
        if what in ("code", "data"):
            if pid is None:
                return []
            if pid not in self._symbols:
                self._symbols[pid] = {}
                self._spawn(self._load_symbols(pid))
            return self._symbols[pid].get(what, [])
        return self._items.get(what, [])

    async def ready(self, pid: int | None = None) -> None:
        """Make `items` current now (and what task `pid` offers known)."""
        if time.monotonic() - self._stamp > FRESH_S:
            self._stamp = time.monotonic()
            await self.refresh()
        await self.task_ready(pid)

    async def task_ready(self, pid: int | None) -> None:
        """Know task `pid`'s symbols, and the variables where it is stopped now."""
        if pid is not None:
            if not self._symbols.get(pid):
                await self._load_symbols(pid)
            await self._load_variables(pid)

    def forget(self, pid: int | None = None) -> None:
        """Tasks changed (a load, a restart): read again on the next Tab."""
        self._stamp = 0.0
        if pid is None:
            self._symbols.clear()
        else:
            self._symbols.pop(pid, None)

    def refresh_soon(self) -> None:
        if time.monotonic() - self._stamp > FRESH_S and (
                self._refreshing is None or self._refreshing.done()):
            self._stamp = time.monotonic()
            self._refreshing = self._spawn(self.refresh())

    def _spawn(self, coroutine) -> asyncio.Task | None:
        try:
            return asyncio.get_running_loop().create_task(coroutine)
        except RuntimeError:                 # no loop (completion outside the console)
            coroutine.close()
            return None

    async def refresh(self) -> None:
        request = self.client.request
        rows = await _ask(request("ps"), "tasks", "tasks")
        self._items["pids"] = [(str(r["pid"]), f"{r['app_name']} ({r['state']})") for r in rows]
        self._items["apps"] = [(r["app_name"], f"pid {r['pid']}") for r in rows]
        values = await _ask(request("val.list"), "values")
        self._items["values"] = _registry(values)
        commands = await _ask(request("cmd.list"), "commands")
        self._items["commands"] = _registry(commands)
        boxes = await _ask(request("mailbox.snapshot"), "descriptors")
        self._items["mailboxes"] = [(d["target"], f"owner {d.get('owner_pid')}") for d in boxes]
        bps = await _ask(request("bp.list"), "breakpoints")
        self._items["breakpoints"] = [(str(b["id"]), f"pid {b['pid']} {b.get('location')}")
                                      for b in bps]
        watches = await _ask(request("watch.list"), "watches")
        self._items["watches"] = [(str(w["id"]), f"pid {w['pid']} {w.get('symbol') or ''}")
                                  for w in watches]

    async def _load_symbols(self, pid: int) -> None:
        listing = await _ask(self.client.request("symbols.list", pid=pid), "symbols", "symbols")
        code = [(s["name"], "function") for s in listing if s.get("space") == "code"]
        files = sorted({Path(s["file"]).name for s in listing if s.get("file")})
        data = [(s["name"], "variable") for s in listing if s.get("space") != "code"]
        self._symbols[pid] = {"code": code + [(f"{f}:", "source file") for f in files],
                              "data": data}

    async def _load_variables(self, pid: int) -> None:
        """The arguments, locals and globals the innermost frame sees (none while the
        task runs)."""
        try:
            listing = (await self.client.request("frame.variables", pid=pid,
                                                 scope="all"))["variables"]
        except (ProtocolError, ConnectionClosed, TimeoutError):
            listing = {}
        found: dict[str, str] = {}
        for scope in ("arguments", "locals", "globals"):
            for record in listing.get(scope) or []:
                found.setdefault(record["name"], record.get("type") or scope)
        self._variables[pid] = sorted(found.items())


async def _ask(request, *keys: str) -> list[dict[str, Any]]:
    """The list under `keys` of the reply, or [] if the executive says no."""
    try:
        value: Any = await request
    except (ProtocolError, ConnectionClosed, TimeoutError):
        return []
    for key in keys:
        value = value.get(key, []) if isinstance(value, dict) else []
    return value if isinstance(value, list) else []


def _registry(entries: list[dict[str, Any]]) -> list[tuple[str, str]]:
    out = []
    for e in entries:
        oid = f"0x{e['oid']:04X}"
        name = ".".join(x for x in (e.get("group_name"), e.get("name")) if x)
        if e.get("name"):
            out.append((name, oid))
        out.append((oid, name))
    return out

