"""Make the helpers beside the C executive's tests importable (shimkit, boardkit, ...),
and serve one host board per variant for the tests that talk to it."""
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from boardkit import clear, connect, image, serving  # noqa: E402


@pytest.fixture(scope="session")
def built(tmp_path_factory):
    """image(name): the test programs, compiled once per session."""
    out = str(tmp_path_factory.mktemp("images"))
    return lambda name: image(name, out)


@pytest.fixture(scope="module", params=["minimal", "development", "full"])
def board(request):
    """The host board serving the framed protocol, one per variant."""
    with serving(request.param) as served:
        served.variant = request.param
        yield served


@pytest.fixture
def host(board):
    """A new host on the board (which drops the previous host's sessions and loads)."""
    client = connect(board)
    yield client
    clear(client)
    client.close()

