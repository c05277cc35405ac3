"""A real executive on a real socket for the client-side tests, and a program with
symbols (built the way `hsx asm` builds it: an .hxe with its .sym beside it)."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parents[1] / "shell"))

from hsx.client import Client  # noqa: E402
from hsx.server import BackgroundServer, ServerConfig  # noqa: E402
from shellkit import build  # noqa: E402

COUNTER = """
.data
counter: .word 0x11223344
msg:     .ascii "tick\\n"
.text
.entry start
start:
    CALL main
    LDI R0, 0
    SVC MOD=1, FN=0
main:
    LDI32 R2, counter
loop:
    LD R1, [R2+0]
    ADDI R1, R1, 1
    ST [R2+0], R1
    JMP loop
"""


@pytest.fixture
def server(tmp_path):
    with BackgroundServer(ServerConfig(port=0, root=tmp_path / "fs")) as srv:
        yield srv


@pytest.fixture
def client(server):
    with Client(server.host, server.port, timeout=10) as c:
        yield c


@pytest.fixture
def counter(tmp_path) -> Path:
    return build(tmp_path, COUNTER, "counter")
