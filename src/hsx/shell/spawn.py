"""Finding the executive, or starting one (`--spawn`) that lives as long as the console."""
from __future__ import annotations

import asyncio
import subprocess
from dataclasses import dataclass

from hsx.client import AsyncClient
from hsx.client.launch import LaunchError, start_executive, stop_executive

from .output import Printer

class NoExecutive(Exception):
    """Nothing to talk to; the message says how to get something."""


@dataclass
class Daemon:
    process: subprocess.Popen

    def stop(self) -> None:
        stop_executive(self.process)


async def connect_or_spawn(host: str, port: int, token: str | None, timeout: float,
                           spawn: bool, out: Printer) -> tuple[AsyncClient, Daemon | None]:
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
