"""A window of a timeline as plain JSON-ready lists: what `timeline.view` answers and the
debugger's timeline panel draws (one lane per task over the last instructions)."""
from __future__ import annotations

from typing import Any

from .model import BEGIN, END, INSTANT, Timeline

MAX_ITEMS = 4000                # slices, and instants, a view holds at most (the newest)


def window(timeline: Timeline, first: int) -> dict[str, Any]:
    """The part of `timeline` from instruction `first` to its end: tasks, slices
    `[pid, start, end, name, reason]` (cut to the window), instants `[pid, at, category,
    name]` and flows `[sender, send_at, receiver, recv_at, mailbox, seq]`."""
    slices: list[list] = []
    instants: list[list] = []
    begun: dict[int, tuple] = {}
    for event in timeline.events:
        kind = event[0]
        if kind == BEGIN:
            begun[event[3]] = event
        elif kind == END:
            start = begun.pop(event[2], None)
            if start is not None and event[1] >= first:
                slices.append([event[2], max(start[1], first), event[1], start[4], start[5]])
        elif kind == INSTANT and event[1] >= first:
            instants.append([event[3], event[1], event[4], event[5]])
    flows = [list(flow[1:]) for flow in timeline.flows if flow[4] >= first]
    return {"start": max(first, timeline.start), "end": timeline.end,
            "tasks": [{"pid": pid, "name": name} for pid, name in sorted(timeline.tasks.items())],
            "slices": slices[-MAX_ITEMS:], "instants": instants[-MAX_ITEMS:],
            "flows": flows[-MAX_ITEMS:], "dropped": timeline.dropped}
