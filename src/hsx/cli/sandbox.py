"""Where guests' files live when the command line does not say."""
from __future__ import annotations

from pathlib import Path

import platformdirs


def default_root() -> Path:
    """The sandbox `hsx run` and `hsx execd` give tasks unless --root says otherwise: a
    directory of hsx's own under the user's data directory, never the user's own files,
    and the same from one run to the next (what a task wrote is there the next time)."""
    return platformdirs.user_data_path("hsx") / "sandbox"
