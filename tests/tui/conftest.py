"""Fixtures for the terminal debugger's tests: a real `hsx execd` (a child process), the
test programs built as a user builds them, and a way to wait for the app."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from tuikit import PROGRAMS, daemon  # noqa: E402

@pytest.fixture(scope="session")
def execd(tmp_path_factory):
    """An executive daemon for the whole session; each test loads its own task."""
    yield from daemon(tmp_path_factory.mktemp("execd"))


@pytest.fixture(scope="session")
def walk(tmp_path_factory) -> Path:
    """programs/walk.c built with -g -O0 (an .hxe with its .sym)."""
    return built(tmp_path_factory, "walk")


@pytest.fixture(scope="session")
def spin(tmp_path_factory) -> Path:
    """programs/spin.c (a loop that never ends) built with -g -O0."""
    return built(tmp_path_factory, "spin")


def built(tmp_path_factory, name: str) -> Path:
    """programs/NAME.c built as a user builds it for debugging: its .hxe (.sym beside)."""
    out = tmp_path_factory.mktemp(name)
    source = out / f"{name}.c"
    source.write_text((PROGRAMS / f"{name}.c").read_text())
    subprocess.run([sys.executable, "-m", "hsx", "cc", "-g", "-O0", str(source),
                    "-o", str(out / f"{name}.hxe")], check=True, capture_output=True,
                   timeout=300)
    return out / f"{name}.hxe"
