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

sys.path.insert(0, str(Path(__file__).parent))

if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)
