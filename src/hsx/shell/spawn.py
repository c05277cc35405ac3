"""Finding the executive, or starting one (`--spawn`) that lives as long as the console."""
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


@dataclass
class Daemon:
    process: subprocess.Popen

    def stop(self) -> None:
        from hsx.client.launch import stop_executive
        stop_executive(self.process)


async def connect_or_spawn(host: str, port: int, token: str | None, timeout: float,
                           spawn: bool, out: Printer) -> tuple[AsyncClient, Daemon | None]:
    import asyncio
    from hsx.client.aio import AsyncClient
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


async def connect_immediately(host: str, port: int, token: str | None, timeout: float,
                              spawn: bool, out: Printer) -> tuple[ImmediateClient, None]:
    """`connect_or_spawn` for a command that needs no events, which never spawns: the
    blocking client (immediate.py)."""
    try:
        return await ImmediateClient.connect(host, port, timeout=timeout, token=token), None
    except OSError as error:
        raise _no_executive(host, port, error) from None


def _no_executive(host: str, port: int, error: OSError) -> NoExecutive:
    why = "no executive is listening" if isinstance(error, ConnectionRefusedError) \
        else f"cannot talk to the executive ({_why(error)})"
    return NoExecutive(
        f"{host}:{port}: {why}\n"
        f"  start one with `hsx execd` (add --load PROG to load a program), give "
        f"--host/--port of a running one, or run `hsx shell --spawn`")


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
