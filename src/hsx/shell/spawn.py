"""Finding the executive (at --host/--port, or a board at a --connect URL), or starting
one (`--spawn`) that lives as long as the console."""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .immediate import ImmediateClient
from .output import Printer

if TYPE_CHECKING:
    import subprocess

    from hsx.client.aio import AsyncClient


class NoExecutive(Exception):
    """Nothing to talk to; the message says how to get something."""


@dataclass(frozen=True)
class Address:
    """Where the console connects: host and port, or a URL (`--connect`)."""

    host: str
    port: int
    url: str | None = None

    def __str__(self) -> str:
        return self.url or f"{self.host}:{self.port}"


@dataclass
class Daemon:
    process: subprocess.Popen

    def stop(self) -> None:
        from hsx.client.launch import stop_executive
        stop_executive(self.process)


async def connect_or_spawn(where: Address, token: str | None, timeout: float,
                           spawn: bool, out: Printer) -> tuple[AsyncClient, Daemon | None]:
    import asyncio
    from hsx.client.aio import AsyncClient
    if where.url is not None:
        return await _connect_url(where.url, token, timeout, out), None
    host, port = where.host, where.port
    try:
        return await AsyncClient.connect(host, port, timeout=timeout, token=token), None
    except OSError as error:            # (TimeoutError is one)
        if not spawn:
            raise _no_executive(host, port, error) from None
    daemon = await asyncio.to_thread(_start, host, port, token)
    out.text(f"started an executive on {host}:{port} (pid {daemon.process.pid}); "
             "it stops when this console ends", "dim")
    try:
        return await AsyncClient.connect(host, port, timeout=timeout, token=token), daemon
    except BaseException:
        daemon.stop()
        raise


async def connect_immediately(where: Address, token: str | None, timeout: float,
                              spawn: bool, out: Printer) -> tuple[ImmediateClient, None]:
    """`connect_or_spawn` for a command that needs no events, which never spawns: the
    blocking client (immediate.py), to an executive at host and port."""
    try:
        return await ImmediateClient.connect(where.host, where.port, timeout=timeout,
                                             token=token), None
    except OSError as error:
        raise _no_executive(where.host, where.port, error) from None


def _no_executive(host: str, port: int, error: OSError) -> NoExecutive:
    why = "no executive is listening" if isinstance(error, ConnectionRefusedError) \
        else f"cannot talk to the executive ({_why(error)})"
    return NoExecutive(
        f"{host}:{port}: {why}\n"
        f"  start one with `hsx execd` (add --load PROG to load a program), give "
        f"--host/--port of a running one, or run `hsx shell --spawn`")


async def _connect_url(url: str, token: str | None, timeout: float,
                       out: Printer) -> AsyncClient:
    import asyncio
    from hsx.client.aio import AsyncClient
    from hsx.client.progress import ShownProgress
    try:
        return await AsyncClient.connect(url, timeout=timeout, token=token,
                                         progress=ShownProgress(lambda text: out.text(text, "dim")))
    except (OSError, asyncio.TimeoutError) as error:
        raise NoExecutive(f"{url}: cannot talk to it ({_why(error)})\n"
                          "  is the board running HSX? `hsx board run --board host --listen "
                          "socket://127.0.0.1:PORT` serves the executive's host build") from None


def _start(host: str, port: int, token: str | None) -> Daemon:
    """`hsx execd` as a child that ends with this console, even a killed one."""
    from hsx.client.launch import LaunchError, start_executive
    try:
        return Daemon(start_executive(host, port, token))
    except LaunchError as error:
        raise NoExecutive(str(error)) from None


def _why(error: BaseException) -> str:
    if isinstance(error, TimeoutError):
        return "no answer"
    return getattr(error, "strerror", None) or str(error) or type(error).__name__
