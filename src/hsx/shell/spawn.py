"""Finding the executive (at --host/--port, or a board at a --connect URL), or starting
one (`--spawn`) that lives as long as the console."""
from __future__ import annotations

import asyncio
import subprocess
from dataclasses import dataclass

from hsx.client import AsyncClient
from hsx.client.launch import LaunchError, start_executive, stop_executive
from hsx.client.progress import ShownProgress

from .output import Printer


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
        stop_executive(self.process)


async def connect_or_spawn(where: Address, token: str | None, timeout: float,
                           spawn: bool, out: Printer) -> tuple[AsyncClient, Daemon | None]:
    if where.url is not None:
        return await _connect_url(where.url, token, timeout, out), None
    host, port = where.host, where.port
    try:
        return await AsyncClient.connect(host, port, timeout=timeout, token=token), None
    except (OSError, asyncio.TimeoutError) as error:
        if not spawn:
            why = "no executive is listening" if isinstance(error, ConnectionRefusedError) \
                else f"cannot talk to the executive ({_why(error)})"
            raise NoExecutive(
                f"{host}:{port}: {why}\n"
                f"  start one with `hsx execd` (add --load PROG to load a program), give "
                f"--host/--port of a running one, or run `hsx shell --spawn`") from None
    daemon = await asyncio.to_thread(_start, host, port, token)
    out.text(f"started an executive on {host}:{port} (pid {daemon.process.pid}); "
             "it stops when this console ends", "dim")
    try:
        return await AsyncClient.connect(host, port, timeout=timeout, token=token), daemon
    except BaseException:
        daemon.stop()
        raise


async def _connect_url(url: str, token: str | None, timeout: float,
                       out: Printer) -> AsyncClient:
    try:
        return await AsyncClient.connect(url, timeout=timeout, token=token,
                                         progress=ShownProgress(lambda text: out.text(text, "dim")))
    except (OSError, asyncio.TimeoutError) as error:
        raise NoExecutive(f"{url}: cannot talk to it ({_why(error)})\n"
                          "  is the board running HSX? `hsx board run --board host --listen "
                          "socket://127.0.0.1:PORT` serves the executive's host build") from None


def _start(host: str, port: int, token: str | None) -> Daemon:
    """`hsx execd` as a child that ends with this console, even a killed one."""
    try:
        return Daemon(start_executive(host, port, token))
    except LaunchError as error:
        raise NoExecutive(str(error)) from None


def _why(error: BaseException) -> str:
    if isinstance(error, asyncio.TimeoutError):
        return "no answer"
    return getattr(error, "strerror", None) or str(error) or type(error).__name__
