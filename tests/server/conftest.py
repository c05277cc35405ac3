"""Fixtures for server tests: a real executive on a real socket (port 0, own thread)
and clients that talk to it.  Helpers and programs live in serverkit.py."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from hsx.client import Client  # noqa: E402
from hsx.server import BackgroundServer, ServerConfig  # noqa: E402
from serverkit import Raw, profile_of  # noqa: E402


@pytest.fixture
def server(request, tmp_path):
    """The executive, of the variant `@pytest.mark.profile("full")` names (default:
    development, as `hsx execd` runs)."""
    config = ServerConfig(port=0, root=tmp_path / "fs", profile=profile_of(request))
    with BackgroundServer(config) as srv:
        yield srv


@pytest.fixture
def connect(server):
    clients: list[Client] = []

    def make(**kwargs) -> Client:
        client = Client(server.host, server.port, timeout=10, **kwargs)
        clients.append(client)
        return client

    yield make
    for client in clients:
        client.close()


@pytest.fixture
def client(connect) -> Client:
    return connect()


@pytest.fixture
def raw(server):
    conns: list[Raw] = []

    def make(**kwargs) -> Raw:
        conn = Raw(server, **kwargs)
        conns.append(conn)
        return conn

    yield make
    for conn in conns:
        conn.close()
