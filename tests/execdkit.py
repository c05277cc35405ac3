"""`hsx execd` as a child process, started as a user starts it, for the front ends' tests
(the terminal debugger and the DAP adapter talk to it over a real socket)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def execd_child(root: Path):
    """Start `hsx execd` on a free port with ROOT as its file system; yield (host, port),
    then stop it. A generator, so a fixture can `yield from` it."""
    proc = subprocess.Popen([sys.executable, "-m", "hsx", "execd", "--port", "0",
                             "--root", str(root)], stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True)
    line = proc.stdout.readline()
    assert line.startswith("hsx execd listening on "), line
    host, port = line.split()[-1].rsplit(":", 1)
    yield host, int(port)
    proc.terminate()
    proc.wait(timeout=10)
