"""A real executive on a real socket for the client-side tests, and a program with
symbols (built the way `hsx asm` builds it: an .hxe with its .sym beside it)."""
from __future__ import annotations

from pathlib import Path

import pytest

from hsx.client import Client
from hsx.image.hxe import write_hxe
from hsx.image.sym import write_sym
from hsx.server import BackgroundServer, ServerConfig
from hsx.toolchain.build import assemble_file, link_modules

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


def build(directory: Path, source: str, name: str) -> Path:
    """Assemble and link `source` into directory/name.hxe (+ name.sym)."""
    src = directory / f"{name}.mvasm"
    src.write_text(source)
    result = link_modules([assemble_file(src)], app_name=name)
    (directory / f"{name}.sym").write_bytes(write_sym(result.symbols))
    image = directory / f"{name}.hxe"
    image.write_bytes(write_hxe(result.image))
    return image


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
