"""Finding the executive, or starting one (`--spawn`) that lives as long as the console."""
from __future__ import annotations

import asyncio
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass

from hsx.client import AsyncClient

from .output import Printer

START_S = 30.0


class NoExecutive(Exception):
    """Nothing to talk to; the message says how to get something."""


@dataclass
class Daemon:
    process: subprocess.Popen

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


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
    """`hsx execd` as a child; its output goes to files nobody has to keep reading."""
    command = [sys.executable, "-m", "hsx", "execd", "--host", host, "--port", str(port)]
    if token:
        command += ["--token", token]
    out, err = tempfile.TemporaryFile("w+"), tempfile.TemporaryFile("w+")
    process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=out, stderr=err,
                               text=True)
    deadline = time.monotonic() + START_S
    while time.monotonic() < deadline:
        out.seek(0)
        if "hsx execd listening on" in out.read():
            return Daemon(process)
        if process.poll() is not None:
            break
        time.sleep(0.05)
    Daemon(process).stop()
    err.seek(0)
    why = err.read().strip().splitlines()
    raise NoExecutive(f"could not start an executive on {host}:{port}: "
                      f"{why[-1] if why else 'it did not start in time'}")


def _why(error: BaseException) -> str:
    if isinstance(error, asyncio.TimeoutError):
        return "no answer"
    return getattr(error, "strerror", None) or str(error) or type(error).__name__
