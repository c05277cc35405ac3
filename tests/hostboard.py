"""The C executive's host build as a child process, for the tests that debug on a board
(the front ends, the conformance suite): `host_board(root, variant)` starts it on a free
port, its flash in a file under `root`, and returns (url, stop)."""
from __future__ import annotations

import re
import signal
import subprocess
from pathlib import Path
from typing import Callable


def board_available() -> bool:
    """Whether this checkout has the C executive's host build (`hsx board run`)."""
    try:
        from hsx.cli.main import SUBCOMMANDS
    except ImportError:
        return False
    return "board" in SUBCOMMANDS


def host_board(root: Path, variant: str = "development") -> tuple[str, Callable[[], None]]:
    """The program `hsx board run --board host` serves, started directly (it starts in
    milliseconds), with `--persist root/flash.bin --root root/fs`: (its URL, stop)."""
    from hsx.board.build import find_or_build
    program = find_or_build(variant)
    (root / "fs").mkdir(parents=True, exist_ok=True)
    process = subprocess.Popen(
        [str(program), "--listen", "tcp:127.0.0.1:0", "--persist", str(root / "flash.bin"),
         "--root", str(root / "fs")],
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    line = process.stdout.readline()
    found = re.search(r"socket://[\w.\[\]:]+:\d+", line)
    if found is None:
        process.kill()
        raise RuntimeError(f"the host build did not start: {line}{process.stdout.read()}")

    def stop() -> None:
        process.send_signal(signal.SIGINT)           # as Ctrl-C: it flushes its store
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        process.stdout.close()
    return found.group(0), stop
