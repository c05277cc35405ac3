"""Fixtures for the mps2-an385 board tests: the board under QEMU (mps2kit) and the
programs they load, built as a user builds them (once per session, in parallel)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from mps2kit import mps2_board

ROOT = Path(__file__).resolve().parents[2]
SOURCES = {"hello": ROOT / "examples/c/hello.c",
           "consumer": ROOT / "examples/c/mailbox_consumer.c",
           "producer": ROOT / "examples/c/mailbox_producer.c",
           "kept": Path(__file__).parent / "programs/kept.c"}


@pytest.fixture(scope="session")
def programs(tmp_path_factory) -> dict[str, Path]:
    """name -> its .hxe (hello world, the mailbox demo's two tasks, a persistent value)."""
    out = tmp_path_factory.mktemp("board-programs")
    builds = {name: subprocess.Popen([sys.executable, "-m", "hsx", "cc", str(source), "-o",
                                      str(out / f"{name}.hxe")],
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
              for name, source in SOURCES.items()}
    for name, build in builds.items():
        output, _ = build.communicate(timeout=600)
        assert build.returncode == 0, f"{name}: {output.decode()}"
    return {name: out / f"{name}.hxe" for name in SOURCES}


@pytest.fixture
def board(tmp_path, monkeypatch):
    """The development variant serving on a free port, its flash in tmp_path/flash.bin."""
    monkeypatch.setenv("HSX_IMAGE_STORE", str(tmp_path / "images"))
    with mps2_board(tmp_path / "flash.bin") as served:
        yield served
