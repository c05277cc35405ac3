"""`hsx dbg FILE`: find (or start) an executive, build FILE for debugging, load it paused.

C is compiled with `-g -O0` (unless told otherwise) and MVASM assembled, by `hsx cc` /
`hsx asm` in child processes, into a directory kept for the session; the `.sym` and
`sources.json` beside the image give the debugger names, lines and the source files.
An executive started here belongs to the session and is stopped when it ends.
"""
from __future__ import annotations

import shutil
import socket
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from hsx.client import Client, ProtocolError

BUILT = {".c": "cc", ".mvasm": "asm"}


class LaunchError(Exception):
    """Why the program could not be started (a message for the user)."""


@dataclass
class Session:
    host: str
    port: int
    pid: int
    app_name: str
    daemon: subprocess.Popen | None = None
    build_dir: Path | None = None
    notes: list[str] = field(default_factory=list)

    def close(self) -> None:
        """Stop the executive started for the session and remove the build."""
        if self.daemon is not None and self.daemon.poll() is None:
            self.daemon.terminate()
            try:
                self.daemon.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.daemon.kill()
        if self.build_dir is not None:
            shutil.rmtree(self.build_dir, ignore_errors=True)


def launch(path: str, host: str, port: int, *, token: str | None = None,
           optimise: int = 0, progress=print) -> Session:
    """Build `path` if it is source, make sure an executive listens on host:port, and
    load the program there, paused before its first instruction."""
    source = Path(path)
    if not source.is_file():
        raise LaunchError(f"no such file: {path}")
    suffix = source.suffix.lower()
    if suffix not in (*BUILT, ".hxe"):
        raise LaunchError(f"{path}: expected a .c, .mvasm or .hxe file")
    build_dir = Path(tempfile.mkdtemp(prefix="hsx-dbg-")) if suffix in BUILT else None
    daemon = None
    try:
        image = source.resolve()
        if build_dir is not None:
            progress(f"building {source.name} ({'-g -O%d' % optimise if suffix == '.c' else 'MVASM'})…")
            image = _build(source, build_dir, optimise)
        if not _listening(host, port):
            progress(f"starting an executive on {host}:{port}…")
            daemon = _start_executive(host, port)
        with Client(host, port, token=token) as client:
            reply = client.request("load", path=str(image), paused=True)
        return Session(host, port, reply["pid"], reply["image"]["app_name"], daemon, build_dir)
    except ProtocolError as error:
        _cleanup(daemon, build_dir)
        raise LaunchError(f"the executive refused {source.name}: {error.message or error.code}")
    except BaseException:
        _cleanup(daemon, build_dir)
        raise


def _build(source: Path, out_dir: Path, optimise: int) -> Path:
    image = out_dir / f"{source.stem}.hxe"
    tool = BUILT[source.suffix.lower()]
    flags = ["-g", f"-O{optimise}"] if tool == "cc" else []
    done = subprocess.run([sys.executable, "-m", "hsx", tool, *flags, str(source.resolve()),
                           "-o", str(image)], capture_output=True, text=True)
    if done.returncode != 0 or not image.is_file():
        raise LaunchError((done.stderr or done.stdout).strip()
                          or f"hsx {tool} failed with status {done.returncode}")
    return image


def _listening(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=1.0):
            return True
    except OSError:
        return False


def _start_executive(host: str, port: int) -> subprocess.Popen:
    errors = tempfile.TemporaryFile("w+")          # a file: a full pipe would stall it
    daemon = subprocess.Popen([sys.executable, "-m", "hsx", "execd", "--host", host,
                               "--port", str(port)], stdin=subprocess.DEVNULL,
                              stdout=subprocess.PIPE, stderr=errors, text=True)
    assert daemon.stdout is not None
    line = daemon.stdout.readline()
    daemon.stdout.close()                 # it prints nothing more
    if not line.startswith("hsx execd listening on"):
        daemon.kill()
        errors.seek(0)
        why = errors.read().strip().splitlines()
        raise LaunchError(f"could not start an executive on {host}:{port}: "
                          f"{why[-1] if why else line.strip()}")
    return daemon


def _cleanup(daemon: subprocess.Popen | None, build_dir: Path | None) -> None:
    Session("", 0, 0, "", daemon, build_dir).close()
