"""Launching a program for a debugger: build it, find (or start) an executive, load it.

    with launch("prog.c", "127.0.0.1", 9998, progress=print) as program:
        ...attach to program.pid on program.host:program.port...

A `.c` is compiled with `-g -O0` (or `optimise`), a `.mvasm` assembled, by `hsx cc` /
`hsx asm` in child processes, into a directory kept while the program is debugged: the
`.sym` beside the image gives the executive names, lines and where the source files
are.  The image is loaded paused before its first instruction.  Without an executive
listening on host:port, one is started there and belongs to the launch: `close()` stops
it and removes the build, and it ends by itself when this process does, however that
ends (`start_executive`).  `host` may instead be a URL (`socket://…`, `serial://…`: a
board): the image is sent to it in chunks and its symbols stay on this machine
(hsx.client.gateway).  Shared by `hsx dbg` and `hsx dap`; no UI here.
"""
from __future__ import annotations

import shutil
import socket
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Sequence

from .errors import ProtocolError
from .progress import ShownProgress
from .sync import Client
from .url import URLError

BUILT = {".c": "cc", ".mvasm": "asm"}
LAUNCHABLE = (*BUILT, ".hxe")


class LaunchError(Exception):
    """Why the program could not be started (a message for the user)."""


@dataclass
class Launch:
    """A loaded program (paused at its entry) and what was started for it."""

    host: str
    port: int
    pid: int
    app_name: str
    daemon: subprocess.Popen | None = None        # an executive started for it
    build_dir: Path | None = None
    source: Path | None = None                    # the .c / .mvasm it was built from
    optimise: int = 0

    def rebuild(self) -> None:
        """Build the source again over the loaded image (the executive's `restart` then
        loads the new build); LaunchError says what the build said.  Nothing to do for
        an image that was not built here."""
        if self.source is not None and self.build_dir is not None:
            _build(self.source, self.build_dir, self.optimise)

    def close(self) -> None:
        """Stop the executive started for the program and remove the build."""
        stop_executive(self.daemon)
        if self.build_dir is not None:
            shutil.rmtree(self.build_dir, ignore_errors=True)

    def __enter__(self) -> Launch:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def launch(path: str | Path, host: str, port: int, *, token: str | None = None,
           optimise: int = 0, progress: Callable[[str], None] | None = None,
           args: Sequence[str] = (), env: Sequence[str] = ()) -> Launch:
    """Build `path` if it is source, make sure an executive listens on host:port, and
    load the program there, paused before its first instruction, with `args` as its
    argv[1:] and `env` ("NAME=VALUE" each) as its environment.  Raises LaunchError
    (nothing left running, nothing left on disk)."""
    say = progress or (lambda text: None)
    source = Path(path)
    if not source.is_file():
        raise LaunchError(f"no such file: {path}")
    suffix = source.suffix.lower()
    if suffix not in LAUNCHABLE:
        raise LaunchError(f"{path}: expected a .c, .mvasm or .hxe file")
    build_dir = Path(tempfile.mkdtemp(prefix="hsx-launch-")) if suffix in BUILT else None
    daemon = None
    try:
        image = source.resolve()
        if build_dir is not None:
            say(f"building {source.name} ({'-g -O%d' % optimise if suffix == '.c' else 'MVASM'})…")
            image = _build(source, build_dir, optimise)
        command_line = {"args": list(args)} if args else {}
        if env:
            command_line["env"] = list(env)
        if "://" in host:
            reply = _load_on(host, image, token, say, command_line)
        else:
            if not listening(host, port):
                say(f"starting an executive on {host}:{port}…")
                daemon = start_executive(host, port)
            with Client(host, port, token=token) as client:
                reply = client.request("load", path=str(image), paused=True, **command_line)
        return Launch(host, port, reply["pid"], reply["image"]["app_name"], daemon, build_dir,
                      source if build_dir is not None else None, optimise)
    except ProtocolError as error:
        _cleanup(daemon, build_dir)
        raise LaunchError(f"the executive refused {source.name}: {error.message or error.code}")
    except OSError as error:
        _cleanup(daemon, build_dir)
        where = host if "://" in host else f"{host}:{port}"
        raise LaunchError(f"cannot talk to the executive on {where}: {error}") from None
    except BaseException:
        _cleanup(daemon, build_dir)
        raise


def _load_on(url: str, image: Path, token: str | None, say: Callable[[str], None],
             command_line: dict) -> dict:
    """Load the image on the executive at `url` (a board: sent in chunks, with progress
    after a second), with the program's `command_line` (args, env)."""
    say(f"loading {image.name} on {url}…")
    try:
        client = Client.connect(url, token=token, progress=ShownProgress(say))
    except URLError as error:
        raise LaunchError(str(error)) from None
    with client:
        return client.request("load", path=str(image), paused=True, **command_line)


def listening(host: str, port: int) -> bool:
    """Does something accept connections on host:port?"""
    try:
        with socket.create_connection((host, port), timeout=1.0):
            return True
    except OSError:
        return False


def start_executive(host: str, port: int, token: str | None = None) -> subprocess.Popen:
    """`hsx execd` on host:port in a child process, once it listens.  Its stdin is a pipe
    only this process holds the other end of (`--exit-on-eof`): when this process ends,
    even killed with SIGKILL, the pipe closes and the executive shuts down rather than
    linger on the port for the next debugging session to find."""
    errors = tempfile.TemporaryFile("w+")          # a file: a full pipe would stall it
    command = [sys.executable, "-m", "hsx", "execd", "--host", host, "--port", str(port),
               "--exit-on-eof", *(("--token", token) if token else ())]
    daemon = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=errors, text=True)
    assert daemon.stdout is not None
    line = daemon.stdout.readline()
    daemon.stdout.close()                 # it prints nothing more
    if not line.startswith("hsx execd listening on"):
        stop_executive(daemon)
        errors.seek(0)
        why = errors.read().strip().splitlines()
        raise LaunchError(f"could not start an executive on {host}:{port}: "
                          f"{why[-1] if why else line.strip() or 'it exited'}")
    return daemon


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


def stop_executive(daemon: subprocess.Popen | None) -> None:
    """End an executive `start_executive` started, and wait for it."""
    if daemon is None:
        return
    if daemon.poll() is None:
        daemon.terminate()
        try:
            daemon.wait(timeout=10)
        except subprocess.TimeoutExpired:
            daemon.kill()
            daemon.wait()
    if daemon.stdin is not None:
        daemon.stdin.close()


def _cleanup(daemon: subprocess.Popen | None, build_dir: Path | None) -> None:
    Launch("", 0, 0, "", daemon, build_dir).close()
