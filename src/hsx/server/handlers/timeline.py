"""The executive's timeline over protocol v1 (docs/timeline.md): `timeline.start`,
`stop`, `status`, `export` (a Perfetto, Chrome JSON or VCD file) and `view` (a window
of it as lists, for the debugger's timeline panel)."""
from __future__ import annotations

import asyncio
from typing import Any

from hsx.debug.timeline import FORMATS, Recorder, build_timeline, export
from hsx.debug.timeline.recorder import MAX_BUDGET, MIN_BUDGET
from hsx.debug.timeline.view import window

from ..dispatch import Call, Group
from ..errors import RequestError, bad_argument
from ..schema import COUNT, Bool, FilePath, Int, ListOf, Str
from .debug import debugger
from .trace import state_path

group = Group("timeline", feature="timeline")
TIMELINE_DIR = "timelines"
TIMELINE_FILE = "timeline_file"
DEFAULT_VIEW = 20_000           # instructions `timeline.view` covers by default


def _recorder(call: Call) -> Recorder:
    return debugger(call).timeline


@group.command("timeline.start", writes=True,
               args={"size": Int(MIN_BUDGET, MAX_BUDGET), "instructions": Bool()})
def timeline_start(call: Call) -> dict[str, Any]:
    """Record afresh into a ring of `size` bytes (default 64 MiB); `instructions` also
    records the instruction-level trace of tasks with `trace.on`."""
    dbg = debugger(call)
    dbg.timeline.stop()
    dbg.timeline = Recorder(dbg.kernel, budget=call.int("size", dbg.timeline.budget),
                            instructions=call.bool("instructions"))
    dbg.timeline.start()
    return {"timeline": dbg.timeline.status()}


@group.command("timeline.stop", writes=True, args={})
def timeline_stop(call: Call) -> dict[str, Any]:
    """Stop recording; what was recorded stays for `export` and `view`."""
    _recorder(call).stop()
    return {"timeline": _recorder(call).status()}


@group.command("timeline.status", args={})
def timeline_status(call: Call) -> dict[str, Any]:
    return {"timeline": _recorder(call).status()}


@group.command("timeline.export", writes=True,
               args={"path": FilePath(), "format": Str(choices=FORMATS),
                     "values": ListOf(Str(max_len=128))})
async def timeline_export(call: Call) -> dict[str, Any]:
    """Write what was recorded to `path` (relative: under `<state dir>/timelines`),
    built off the event loop (a full ring takes a second or two)."""
    path = state_path(call, TIMELINE_DIR)
    recording = _recorder(call).snapshot()
    values = call.field("values") if call.has("values") else None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        written = await asyncio.to_thread(export, recording, path, call.str("format", None),
                                          values)
    except ValueError as error:
        raise bad_argument(str(error)) from None
    except OSError as error:
        raise RequestError(TIMELINE_FILE, f"{path}: {error.strerror or error}") from None
    return {"timeline": written}


@group.command("timeline.view", args={"last": COUNT})
def timeline_view(call: Call) -> dict[str, Any]:
    """The last `last` instructions of the recording (default 20,000) as lanes."""
    recorder = _recorder(call)
    status = recorder.status()
    first = max(status["end"] - call.int("last", DEFAULT_VIEW, min=1), 0)
    view = window(build_timeline(recorder.snapshot(since=first)), first)
    return {"timeline": status, "view": view}
