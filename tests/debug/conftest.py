"""Fixtures for the debugger tests (helpers and programs live in debugkit.py)."""
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from debugkit import Rig, make_rig  # noqa: E402


@pytest.fixture
def rig(tmp_path) -> Rig:
    return make_rig(tmp_path)
