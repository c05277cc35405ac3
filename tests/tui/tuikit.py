"""Helpers for the terminal debugger's tests: loading a task, making the app, waiting
for it, and running a Pilot scenario from a plain (synchronous) test."""
from __future__ import annotations

import asyncio
from contextlib import asynccontextmanager
import socket
import time
from pathlib import Path

from execdkit import execd_child as daemon  # noqa: F401 (the tests' executive)

from hsx.client import Client
from hsx.tui import DebuggerApp
from hsx.tui.layout import LayoutStore
from hsx.tui.target import Target

PROGRAMS = Path(__file__).parent / "programs"


def run(scenario) -> None:
    """Run an async Pilot scenario to its end."""
    asyncio.run(scenario())


def load(execd, path: Path) -> int:
    """Load `path` paused; its PID."""
    with Client(*execd) as client:
        return client.request("load", path=str(path), paused=True)["pid"]


def make_app(execd, tmp_path, pid: int, **kwargs) -> DebuggerApp:
    store = LayoutStore(tmp_path / "layout.json")
    return DebuggerApp(Target(*execd), pid=pid, layouts=store, **kwargs)


async def until(pilot, predicate, timeout: float = 10.0, what: str = "condition"):
    """Let the app run until `predicate()` holds; fail after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        await pilot.pause(0.02)
    raise AssertionError(f"{what} not reached within {timeout} s")


@asynccontextmanager
async def at_main(execd, walk, tmp_path, size=(100, 32)):
    """The debugger on walk.c, started (stopped at main's first line): (app, pilot)."""
    app = make_app(execd, tmp_path, load(execd, walk), start=Target.start)
    async with app.run_test(size=size) as pilot:
        await until(pilot, stopped_at(app, 29, "main"), what="start at main's first line")
        yield app, pilot


def stopped_at(app, line: int | None = None, function: str | None = None):
    """A predicate: the app shows the task paused (at that line / in that function), in
    its innermost frame (a caller's frame selected in the stack is where it was before)."""
    def check():
        location = app.location
        return (app.task is not None and app.task.state == "paused" and not app.running
                and location is not None and location.current and not app._refreshing
                and (line is None or location.line == line)
                and (function is None or location.function == function))
    return check


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]
