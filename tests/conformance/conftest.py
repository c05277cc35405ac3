"""The conformance suite: every test runs against each executive (`executive` fixture,
parametrised): the Python `hsx execd` (over TCP, and over the framed link a board speaks)
and the C executive's host build, each in its
minimal, development and full variants, connected through `hsx.client` by URL.  The C
half is marked `c_executive` (the Python engine plays no part in it: tests/test_engines.py
leaves it out)."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from hostboard import board_available  # noqa: E402
from executives import c_executive, python_executive  # noqa: E402

VARIANTS = ("minimal", "development", "full")
EXECUTIVES = [f"python-{v}" for v in VARIANTS] + [f"linked-{v}" for v in VARIANTS] + [
    pytest.param(f"c-{v}", marks=pytest.mark.c_executive) for v in VARIANTS]


@pytest.fixture(params=EXECUTIVES)
def executive(request, tmp_path, monkeypatch):
    monkeypatch.setenv("HSX_IMAGE_STORE", str(tmp_path / "images"))
    kind, variant = request.param.split("-", 1)
    if kind in ("python", "linked"):
        started = python_executive(tmp_path, variant, linked=kind == "linked")
    else:
        if not board_available():
            pytest.skip("hsx board run (the C executive's host build) is not in this checkout")
        started = c_executive(tmp_path / "board", variant)
    yield started
    started.close()
