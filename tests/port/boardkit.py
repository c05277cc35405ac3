"""The host board serving the framed protocol, for the protocol and wire tests: a board
per variant (started by hsx.board.serve, as `hsx board run` starts it), clients on it,
and the test programs built once per session."""
from __future__ import annotations

import contextlib
import functools
from pathlib import Path
from typing import Iterator
from urllib.parse import urlsplit

from framedclient import FramedClient
from hostkit import EXAMPLES, build_image

from hsx.board.serve import Served, start

HERE = Path(__file__).resolve().parent
PROGRAMS = HERE / "programs"


@contextlib.contextmanager
def serving(variant: str, listen: str = "socket://127.0.0.1:0") -> Iterator[Served]:
    served = start("host", listen, variant)
    try:
        yield served
    finally:
        served.stop()


def connect(served: Served) -> FramedClient:
    """A new host on the board's TCP link, after its hello."""
    parts = urlsplit(served.url)
    client = FramedClient.tcp(parts.hostname, parts.port)
    client.hello()
    return client


def clear(client: FramedClient) -> None:
    """Remove every task (a kill ends a live task, a second kill removes it from ps)."""
    for _ in range(2):
        for row in client.request("ps")["tasks"]["tasks"]:
            client.call("kill", pid=row["pid"])


@functools.lru_cache(maxsize=None)
def image(name: str, out_dir: str) -> bytes:
    """The bytes of tests/port/programs/NAME.c, or of examples/c/NAME.c."""
    source = PROGRAMS / f"{name}.c"
    if not source.is_file():
        source = EXAMPLES / "c" / f"{name}.c"
    return build_image(source, Path(out_dir)).read_bytes()
