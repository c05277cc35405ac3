"""The conformance suite: every test runs against each executive (`executive` fixture,
parametrised): the Python `hsx execd` and the C executive's host build in its minimal,
development and full variants, connected through `hsx.client` by URL."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from hostboard import board_available  # noqa: E402
from executives import c_executive, python_executive  # noqa: E402

EXECUTIVES = ["python", "c-minimal", "c-development", "c-full"]


@pytest.fixture(params=EXECUTIVES)
def executive(request, tmp_path, monkeypatch):
    monkeypatch.setenv("HSX_IMAGE_STORE", str(tmp_path / "images"))
    if request.param == "python":
        started = python_executive(tmp_path)
    else:
        if not board_available():
            pytest.skip("hsx board run (the C executive's host build) is not in this checkout")
        started = c_executive(tmp_path / "board", request.param.split("-", 1)[1])
    yield started
    started.close()
