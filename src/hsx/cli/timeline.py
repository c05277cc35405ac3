"""`hsx run --timeline FILE`: record the run's timeline and write it at the end."""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Callable

import click

from .errors import fail, report

if TYPE_CHECKING:
    from hsx.debug.timeline import Recorder
    from hsx.kernel.executive import Kernel


def timeline_options(command: Callable) -> Callable:
    for option in reversed((
        click.option("--timeline", "timeline_path", type=click.Path(dir_okay=False),
                     default=None, metavar="FILE",
                     help="Record a timeline of the run and write it to FILE: a Perfetto "
                          "trace (open it in ui.perfetto.dev), Chrome JSON for a .json name, "
                          "VCD for a .vcd name. See docs/timeline.md."),
        click.option("--timeline-format", default=None, metavar="FORMAT",
                     callback=_known_format,
                     help="The timeline's format, whatever FILE's name says: perfetto, "
                          "chrome or vcd."),
        click.option("--timeline-value", "timeline_values", multiple=True, metavar="NAME",
                     help="For a VCD timeline: a value to write (repeat it; default all)."),
    )):
        command = option(command)
    return command


def _known_format(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """The format checked by the timeline's own list (imported only when one is given:
    `hsx run` without a timeline loads nothing of the debugger)."""
    if value is None:
        return None
    from hsx.debug.timeline import format_for
    try:
        return format_for("", value)
    except ValueError as error:
        raise click.BadParameter(str(error)) from None


class TimelineOutput:
    """Records from before the first task is loaded until the run ends."""

    def __init__(self, path: str | None, format_: str | None, values: tuple[str, ...]) -> None:
        self.path = Path(path) if path is not None else None
        self.format = format_
        self.values = values or None
        self.recorder: Recorder | None = None
        if self.path is not None and not self.path.parent.is_dir():
            fail(str(self.path), "its directory does not exist",
                 "give --timeline a file in an existing directory")

    def start(self, kernel: Kernel) -> None:
        if self.path is not None:
            from hsx.debug.timeline import Recorder
            self.recorder = Recorder(kernel)
            self.recorder.start()

    def finish(self) -> None:
        """Stop and write the file; a failure to write is reported, not raised (the
        run's own exit code stands)."""
        if self.recorder is None:
            return
        from hsx.debug.timeline import export, format_for
        self.recorder.stop()
        try:
            export(self.recorder.snapshot(), self.path, format_for(self.path, self.format),
                   self.values)
        except ValueError as error:
            report(f"--timeline {self.path}", str(error))
        except OSError as error:
            report(f"--timeline {self.path}", (error.strerror or str(error)).lower())
