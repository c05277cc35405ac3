"""A long transfer's progress shown to a person (a streamed load to a board): nothing for
its first second, then at most twice a second, and its end.  The front ends pass one as
the client's `progress` (hsx.client.wire.Progress)."""
from __future__ import annotations

import time
from typing import Callable

SHOW_AFTER_S = 1.0
EVERY_S = 0.5


class ShownProgress:
    def __init__(self, say: Callable[[str], None]) -> None:
        self.say = say
        self._started: float | None = None
        self._shown = 0.0

    def __call__(self, what: str, done: int, total: int) -> None:
        now = time.monotonic()
        if self._started is None or done == 0:
            self._started, self._shown = now, 0.0
        if now - self._started < SHOW_AFTER_S or (now - self._shown < EVERY_S
                                                  and done < total):
            return
        self._shown = now
        self.say(f"{what}: {done:,} of {total:,} bytes ({100 * done // max(total, 1)}%)")
        if done >= total:
            self._started = None
