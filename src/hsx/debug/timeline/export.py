"""Writing a recording to a file, in the format its name or the caller chooses."""
from __future__ import annotations

import gc
from contextlib import contextmanager
from pathlib import Path
from typing import Iterable, Iterator

from .chrome import write_chrome
from .model import Timeline, build
from .perfetto import write_perfetto
from .recorder import Recording
from .vcd import write_vcd

FORMATS = ("perfetto", "chrome", "vcd")
_SUFFIXES = {".json": "chrome", ".vcd": "vcd"}      # anything else: perfetto


def format_for(path: str | Path, format_: str | None = None) -> str:
    """The format to write `path` in: `format_` when given, else from the suffix
    (.json: chrome, .vcd: vcd, anything else — .pftrace, .perfetto-trace — perfetto)."""
    if format_ is not None:
        if format_ not in FORMATS:
            raise ValueError(f"unknown timeline format {format_!r} "
                             f"(formats: {', '.join(FORMATS)})")
        return format_
    return _SUFFIXES.get(Path(path).suffix.lower(), "perfetto")


@contextmanager
def _bulk() -> Iterator[None]:
    """No cyclic garbage collection while hundreds of thousands of tuples are built
    (none of them in a cycle): it would scan them over and over, tripling the time."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def build_timeline(recording: Recording) -> Timeline:
    with _bulk():
        return build(recording)


def export(recording: Recording, path: str | Path, format_: str | None = None,
           values: Iterable[str] | None = None) -> dict:
    """Write `recording` to `path`; returns {path, format, bytes, events}.  Raises
    ValueError for an unknown format or value name, OSError when the file cannot be
    written."""
    chosen = format_for(path, format_)
    path = Path(path)
    with _bulk():
        timeline = build(recording)
        if chosen == "vcd":
            with open(path, "w", encoding="utf-8") as out:
                count = write_vcd(timeline, out, values)
        else:
            with open(path, "wb") as out:
                writer = write_perfetto if chosen == "perfetto" else write_chrome
                writer(timeline, out)
            count = len(timeline.events)
        del timeline        # freed while collection is off: else the first collection
                            # after would still find (and scan) its tuples
    return {"path": str(path), "format": chosen, "bytes": path.stat().st_size,
            "events": count}
