"""For every suite: the tests directory is importable, so helpers shared across suites
(execdkit: `hsx execd` as a child, a deadline on a child's line) are found wherever a
run starts.  And Ctrl-C works in the programs the tests start, however the run was
started: a shell starts a background job with SIGINT ignored, and an ignored signal
stays ignored in every child (tests interrupt `hsx shell stdio`, and a conformance
program checks that SIGINT starts out with its default action)."""
from __future__ import annotations

import signal
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


# Tests that run the C executive (its host build, or the mps2-an385 under QEMU) and not the
# Python VM: marked `c_executive`, so tests/test_engines.py's run of the whole suite on the
# Python engine leaves them out (they would run the same C again).
C_EXECUTIVE_DIRS = {"port", "board", "link"}
C_EXECUTIVE_FILES = {"test_mps2.py", "test_board_run.py"}
HERE = Path(__file__).parent


def pytest_collection_modifyitems(config, items):
    for item in items:
        parts = Path(str(item.fspath)).resolve().relative_to(HERE.resolve()).parts
        params = getattr(item, "callspec", None)
        if (parts[0] in C_EXECUTIVE_DIRS or parts[-1] in C_EXECUTIVE_FILES
                or (parts[-1] == "test_board.py" and params is not None
                    and "host" in params.params.values())):
            item.add_marker(pytest.mark.c_executive)
