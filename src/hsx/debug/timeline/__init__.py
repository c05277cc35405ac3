"""The executive's timeline: recorded into a bounded ring (`Recorder`), turned into
per-task state slices, message flows, counters and instants (`build_timeline`), and
written for Perfetto, Chrome's trace viewer or a waveform viewer (`export`).  See
docs/timeline.md.
"""
from .export import FORMATS, build_timeline, export, format_for
from .recorder import DEFAULT_BUDGET, Recorder, Recording

__all__ = ["DEFAULT_BUDGET", "FORMATS", "Recorder", "Recording", "build_timeline", "export",
           "format_for"]
