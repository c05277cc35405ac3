"""Make the helpers beside the C executive's tests importable (shimkit, boardkit, ...),
and serve one host board per variant for the tests that talk to it."""
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from boardkit import clear, connect, image, serving  # noqa: E402
from execapi import executive  # noqa: E402

VARIANTS = ["minimal", "development", "full"]
DEBUG_VARIANTS = ["development", "full"]          # the variants with breakpoints and trace


@pytest.fixture(params=VARIANTS)
def ex(request):
    """The C executive (its direct API), one per variant."""
    return executive(request.param)


@pytest.fixture(params=DEBUG_VARIANTS)
def dbg(request):
    """The C executive of a variant that debugs."""
    return executive(request.param)


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

