"""The debugger when the world moves: the task killed under it, the executive gone and
back (it reconnects and finds the app's new task)."""
from __future__ import annotations

import subprocess
import sys

from execdkit import readline
from tuikit import free_port, load, make_app, run, stopped_at, until

from hsx.tui.screens import Confirm
from hsx.tui.widgets.status import StatusBar


def start_execd(port: int, root) -> subprocess.Popen:
    proc = subprocess.Popen([sys.executable, "-m", "hsx", "execd", "--port", str(port),
                             "--root", str(root)], stdout=subprocess.PIPE, text=True)
    assert readline(proc.stdout).startswith("hsx execd listening on")
    return proc


def test_task_killed_then_executive_restarted(walk, tmp_path):
    port = free_port()
    daemon = start_execd(port, tmp_path / "fs")
    try:
        run(lambda: _killed_then_restarted(walk, tmp_path, port, daemon))
    finally:
        for proc in (daemon, *restarted):
            proc.terminate()
            proc.wait(timeout=10)


restarted: list[subprocess.Popen] = []


async def _killed_then_restarted(walk, tmp_path, port, daemon):
    execd = ("127.0.0.1", port)
    app = make_app(execd, tmp_path, load(execd, walk))
    async with app.run_test(size=(100, 30)) as pilot:
        await until(pilot, stopped_at(app))
        status = app.query_one(StatusBar)
        await pilot.press("colon", *"kill", "enter")            # others cannot: it is locked
        await until(pilot, lambda: isinstance(app.screen, Confirm), what="kill asks first")
        await pilot.press("y", "escape")
        await until(pilot, lambda: app.task.state == "killed", what="the kill seen")
        assert "killed" in status.render().plain

        daemon.terminate()                                       # the executive goes away
        daemon.wait(timeout=10)
        await until(pilot, lambda: app.connection.startswith("disconnected"))
        assert "disconnected" in status.render().plain

        restarted.append(start_execd(port, tmp_path / "fs"))    # ... and comes back
        new_pid = load(execd, walk)
        await until(pilot, lambda: app.connection == "connected" and app.pid == new_pid
                    and app.task.state == "paused", timeout=20, what="reattached")
        assert app.task.app_name == "walk"
