"""`hsx execd` as a child process, started as a user starts it, for the front ends' tests
(the terminal debugger and the DAP adapter talk to it over a real socket); `readline`,
for reading a child's output without waiting for ever."""
from __future__ import annotations

import subprocess
import sys
import threading
from pathlib import Path
from typing import IO, AnyStr

LINE_TIMEOUT_S = 60.0


def readline(stream: IO[AnyStr], timeout: float = LINE_TIMEOUT_S) -> AnyStr:
    """`stream.readline()` (a child's stdout), failing the test instead of waiting for
    ever when no line comes within `timeout` seconds (a child hung before printing)."""
    got: list = []

    def read() -> None:
        try:
            got.append(stream.readline())
        except BaseException as exc:          # handed to the test's thread below
            got.append(exc)
    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    reader.join(timeout)
    if not got:
        raise AssertionError(f"no line from the child process within {timeout} s")
    if isinstance(got[0], BaseException):
        raise got[0]
    return got[0]


def execd_child(root: Path, *options: str):
    """Start `hsx execd` on a free port with ROOT as its file system (and `options`, e.g.
    "--engine", "python" or "--profile", "minimal"); yield (host, port), then stop it. A
    generator, so a fixture can `yield from` it."""
    proc = subprocess.Popen([sys.executable, "-m", "hsx", "execd", "--port", "0",
                             "--root", str(root), *options], stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True)
    try:
        line = readline(proc.stdout)
        assert line.startswith("hsx execd listening on "), line
        host, port = line.split()[-1].rsplit(":", 1)
        yield host, int(port)
        proc.terminate()
        proc.wait(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
