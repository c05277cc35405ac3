"""The executives the conformance tests run against, all through `hsx.client` by URL:
the Python `hsx execd` (tcp://, `--profile VARIANT`), the same executive over the framed
link a board speaks (socket://, `--link`), and the C executive's host build (socket://,
started as `hsx board run --board host` starts it), each in every variant.
What a variant offers (docs/variants.md: hsx.kernel.profiles, the one table both
executives follow) decides what a test expects: the command, or `unsupported` naming
the variant that has it."""
from __future__ import annotations

import base64
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from hostboard import host_board

from hsx.client import Client
from hsx.image.hxe import write_hxe
from hsx.kernel.profiles import PROFILES, variant_offering
from hsx.toolchain.build import build_source


@dataclass
class Executive:
    kind: str                                   # "python", "linked" (python) or "c"
    variant: str                                # minimal, development or full
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
        return f"{self.kind}-{self.variant}"

    def offers(self, feature: str) -> bool:
        """Whether the variant offers a session feature (docs/variants.md)."""
        return PROFILES[self.variant].offers(feature)

    def needs(self, feature: str) -> str:
        """The variant a feature needs (what `unsupported` must name)."""
        return variant_offering(feature)

    def connect(self, **options: Any) -> Client:
        client = Client.connect(self.url, timeout=30, **options)
        self.clients.append(client)
        return client

    def close(self) -> None:
        for client in self.clients:
            client.close()
        self.stop()


def python_executive(root: Path, variant: str, linked: bool = False) -> Executive:
    """`hsx execd --profile VARIANT`, its state (stored values) and files under `root`;
    `linked`: reached over its framed link (`--link socket://127.0.0.1:0`), not TCP."""
    from hsx.server import BackgroundServer, ServerConfig

    def start() -> tuple[str, Callable[[], None]]:
        link = {"backend": "socket", "host": "127.0.0.1", "port": 0} if linked else None
        server = BackgroundServer(ServerConfig(port=0, root=root / "fs", profile=variant,
                                               state_dir=root / "state", link=link))
        server.__enter__()
        url = server.server.link_url if linked else f"tcp://{server.host}:{server.port}"
        return url, lambda: server.__exit__(None, None, None)
    return Executive("linked" if linked else "python", variant, start)


def c_executive(root: Path, variant: str) -> Executive:
    """The host build of `variant` (hostboard.host_board), its flash and file system under
    `root`, so a restart keeps its stored values."""
    return Executive("c", variant, lambda: host_board(root, variant))


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
