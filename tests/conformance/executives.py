"""The executives the conformance tests run against, all through `hsx.client` by URL:
the Python `hsx execd` (tcp://) and the C executive's host build in each variant
(socket://, started with `hsx board run --board host`).  What a variant offers decides
what a test expects: the command, or `unsupported` naming the variant that has it."""
from __future__ import annotations

import base64
import re
import signal
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from hsx.client import Client
from hsx.image.hxe import write_hxe
from hsx.toolchain.build import build_source

# what each variant adds (docs/port.md, "Variants"); the Python executive has it all
OFFERS = {
    "minimal": frozenset({"tasks", "memory", "values", "stdio", "mailbox"}),
    "development": frozenset({"tasks", "memory", "values", "stdio", "mailbox", "debug",
                              "events", "trace"}),
    "full": frozenset({"tasks", "memory", "values", "stdio", "mailbox", "debug", "events",
                       "trace", "observers"}),
}
NEEDS = {"debug": "development", "events": "development", "trace": "development",
         "observers": "full"}


@dataclass
class Executive:
    kind: str                                   # "python" or "c"
    variant: str                                # the C build's; "full" for the Python one
    start: Callable[[], tuple[str, Callable[[], None]]]   # -> (url, stop)
    clients: list = field(default_factory=list)

    def __post_init__(self) -> None:
        self.url, self.stop = self.start()

    def restart(self) -> Executive:
        """Stop it and start it again on the same state (its stored values)."""
        self.close()
        self.clients.clear()
        self.url, self.stop = self.start()
        return self

    @property
    def name(self) -> str:
        return "python" if self.kind == "python" else f"c-{self.variant}"

    def offers(self, feature: str) -> bool:
        return feature in OFFERS[self.variant]

    def needs(self, feature: str) -> str:
        """The variant a feature needs (what `unsupported` must name)."""
        return NEEDS[feature]

    def connect(self, **options: Any) -> Client:
        client = Client.connect(self.url, timeout=30, **options)
        self.clients.append(client)
        return client

    def close(self) -> None:
        for client in self.clients:
            client.close()
        self.stop()


def python_executive(root: Path) -> Executive:
    from hsx.server import BackgroundServer, ServerConfig

    def start() -> tuple[str, Callable[[], None]]:
        server = BackgroundServer(ServerConfig(port=0, root=root / "fs",
                                               state_dir=root / "state"))
        server.__enter__()
        return f"tcp://{server.host}:{server.port}", lambda: server.__exit__(None, None, None)
    return Executive("python", "full", start)


def board_available() -> bool:
    """Whether this checkout has the C executive's host build (`hsx board run`)."""
    try:
        from hsx.cli.main import SUBCOMMANDS
    except ImportError:
        return False
    return "board" in SUBCOMMANDS


def c_executive(root: Path, variant: str) -> Executive:
    """The host build of `variant` on a free port, its flash in a file and its file
    system in a directory under `root` (so a restart keeps its stored values).  It is
    the program `hsx board run --board host` serves (started here directly: a test
    starts one in milliseconds; test_board_run.py covers the command)."""
    from hsx.board.build import find_or_build
    program = find_or_build(variant)
    (root / "fs").mkdir(parents=True, exist_ok=True)
    return Executive("c", variant, lambda: _board(program, root))


def _board(program: Path, root: Path) -> tuple[str, Callable[[], None]]:
    """Start the host build; (its URL once it says where it listens, stop)."""
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


def image(source: str, name: str) -> str:
    """An MVASM program as `load {image}` takes it (base64 HXE)."""
    built = build_source(source, filename=f"{name}.mvasm", app_name=name)
    return base64.b64encode(write_hxe(built)).decode()


def wait_for(predicate: Callable[[], Any], timeout: float = 20.0) -> Any:
    """Poll until `predicate()` is true (a generous deadline: loaded machines)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.01)
    raise AssertionError("condition not met in time")
