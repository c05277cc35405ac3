"""For every suite: the tests directory is importable, so helpers shared across suites
(execdkit: `hsx execd` as a child, a deadline on a child's line) are found wherever a
run starts."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
