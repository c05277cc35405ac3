"""A real `hsx execd` process per test (the console runs as its own process too)."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from shellkit import DELAYED, build, start_execd  # noqa: E402


@pytest.fixture
def execd(request, tmp_path):
    """The port of an `hsx execd` of the variant `@pytest.mark.profile(NAME)` names
    (default: development)."""
    marker = request.node.get_closest_marker("profile")
    options = ("--profile", marker.args[0]) if marker else ()
    proc, port = start_execd(tmp_path, *options)
    yield port
    if proc.poll() is None:
        proc.kill()
        proc.wait()


@pytest.fixture
def delayed(tmp_path) -> Path:
    return build(tmp_path, DELAYED, "delayed")
