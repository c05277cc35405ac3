"""A timeline in Chrome's JSON trace format (chrome://tracing, Perfetto, speedscope and
the other tools that read only that).

The executive is process 1; each task is a thread of it, tid = its PID, named "app
(pid N)".  Timestamps (microseconds in that format) are the instruction clock: one
"µs" is one instruction.  Slices are B/E pairs, output lines, breakpoint stops, sends
and receptions are thread instants, messages are flows (s/f) from the send to the
reception, values are counters (C).
"""
from __future__ import annotations

from typing import Any, BinaryIO

import orjson

from .model import BEGIN, COUNT, END, INSTANT, Timeline, task_label

EXECUTIVE_PID = 1


def chrome_events(timeline: Timeline) -> list[dict[str, Any]]:
    """The `traceEvents` of `timeline`."""
    out: list[dict[str, Any]] = [{"ph": "M", "name": "process_name", "pid": EXECUTIVE_PID,
                                  "tid": 0, "args": {"name": "HSX executive"}}]
    for pid, name in sorted(timeline.tasks.items()):
        out.append({"ph": "M", "name": "thread_name", "pid": EXECUTIVE_PID, "tid": pid,
                    "args": {"name": task_label(pid, name)}})
    add = out.append
    values = timeline.values
    for event in timeline.events:
        kind, at = event[0], event[1]
        if kind == BEGIN:
            add({"ph": "B", "ts": at, "pid": EXECUTIVE_PID, "tid": event[3], "name": event[4],
                 "cat": "state", "args": {"reason": event[5], "wall_time": event[2]}})
        elif kind == END:
            add({"ph": "E", "ts": at, "pid": EXECUTIVE_PID, "tid": event[2]})
        elif kind == INSTANT:
            pid = event[3]
            add({"ph": "i", "s": "t", "ts": at, "pid": EXECUTIVE_PID, "tid": pid,
                 "cat": event[4], "name": event[5], "args": {"wall_time": event[2]}})
            for flow in event[6] or ():
                add({"ph": "s", "ts": at, "pid": EXECUTIVE_PID, "tid": pid, "id": flow,
                     "cat": "message", "name": "message"})
            if event[7] is not None:
                add({"ph": "f", "bp": "e", "ts": at, "pid": EXECUTIVE_PID, "tid": pid,
                     "id": event[7], "cat": "message", "name": "message"})
        elif kind == COUNT:
            add({"ph": "C", "ts": at, "pid": EXECUTIVE_PID, "name": values[event[3]],
                 "args": {"value": event[4]}})
        else:                                                   # STEP
            add({"ph": "i", "s": "t", "ts": at, "pid": EXECUTIVE_PID, "tid": event[2],
                 "cat": "instruction", "name": event[4], "args": {"pc": event[3]}})
    return out


def write_chrome(timeline: Timeline, out: BinaryIO) -> int:
    """Write `timeline` as Chrome JSON to `out`; returns the bytes written."""
    data = orjson.dumps({"traceEvents": chrome_events(timeline), "displayTimeUnit": "ns",
                         "otherData": {"clock": "instructions", "start": timeline.start,
                                       "end": timeline.end}})
    out.write(data)
    return len(data)
