"""From a recording's records to what a timeline shows: per-task state slices, message
flows, value counters and instants, in time order (what every exporter and the
debugger's timeline panel read).

A task's state slice is named by its state and what it is about ("waiting_mbx:
app:readings", "sleeping: 50 ms", "paused: breakpoint"); a ready task is "running" while
it is the one on the CPU (or one of the tasks a quantum-1 round robin interleaves) and
"ready" while it waits for its turn.  The reason of the transition that began a slice
goes with it.  An ended task's last state is an instant ("returned: exit 0").

Events are plain tuples, time-ordered (an exporter writes hundreds of thousands), the
first item saying which kind:

    (BEGIN, at, wall, pid, name, reason)          a state slice of `pid` begins
    (END, at, pid)                                ... and ends
    (INSTANT, at, wall, pid, category, name, flows_out, flow_in)
    (COUNT, at, wall, oid, value)                 a value changed
    (STEP, at, pid, pc, text)                     an instruction (instruction-level trace)

`category` is "stdout", "stderr", "break", "send", "recv" or "end".  A send's
`flows_out` lists the flow ids of the messages' receptions (filled as they are found:
one per receiver); a reception's `flow_in` is the id of its flow, or None when the
send was not recorded.
"""
from __future__ import annotations

from typing import Any, NamedTuple

from .recorder import BREAK, BURST, OUTPUT, RECV, RUN, SEND, STATE, TRACE, VALUE, Recording

BEGIN, END, INSTANT, COUNT, STEP = range(5)

_RUNNABLE = ("ready", "running")
_ENDED = ("returned", "faulted", "killed")


class Timeline(NamedTuple):
    tasks: dict[int, str]                   # pid -> app name, every task seen
    values: dict[int, str]                  # oid -> name, every value that changed
    events: list[tuple]
    flows: list[tuple]                      # (id, sender, send_at, receiver, recv_at, mailbox, seq)
    start: int
    end: int
    start_wall: float
    end_wall: float
    dropped: int


def slice_name(state: str, detail: Any) -> str:
    return state if detail is None else f"{state}: {detail}"


def task_label(pid: int, name: str) -> str:
    """How a task's track is named: its app name and PID."""
    return f"{name} (pid {pid})"


def build(recording: Recording) -> Timeline:
    """The timeline of `recording`: one pass over its records."""
    events: list[tuple] = []
    emit = events.append
    flows: list[tuple] = []
    states: dict[int, tuple[str, str, Any]] = {}     # pid -> (state, reason, detail)
    opened: dict[int, tuple[int, int]] = {}          # pid -> (start, index of its BEGIN)
    voided = False
    sends: dict[int, tuple[int, int, list[int]]] = {}   # descriptor << 32 + seq -> the send
    on_cpu: tuple = ()
    records = recording.records
    origin = records[0][0] if records else recording.start

    def close(pid: int, at: int) -> None:
        nonlocal voided
        slice_ = opened.pop(pid, None)
        if slice_ is None:
            return
        if slice_[0] == at and states[pid][0] in _RUNNABLE:
            events[slice_[1]] = None        # ready for no time at all: no slice
            voided = True
        else:
            emit((END, at, pid))

    def begin(pid: int, at: int, wall: float) -> None:
        state, reason, detail = states[pid]
        if state in _RUNNABLE:
            name = "running" if pid in on_cpu else "ready"
        else:
            name = slice_name(state, detail)
        opened[pid] = (at, len(events))
        emit((BEGIN, at, wall, pid, name, reason))

    def switch(at: int, wall: float, now_on: tuple) -> None:
        nonlocal on_cpu
        changed = set(on_cpu).symmetric_difference(now_on)
        on_cpu = now_on
        for pid in sorted(changed):
            if pid in opened and states[pid][0] in _RUNNABLE:
                close(pid, at)
                begin(pid, at, wall)

    cpu = recording.baseline.get(None)
    if cpu is not None:
        on_cpu = (cpu[3],) if cpu[2] == RUN else cpu[4]
    for pid, record in sorted(item for item in recording.baseline.items()
                              if item[0] is not None):
        if record[4] not in _ENDED:
            states[pid] = (record[4], record[5], record[6])
            begin(pid, origin, record[1])
    send_labels: dict[str, str] = {}                # mailbox -> "send mailbox"
    recv_labels: dict[str, str] = {}
    for at, wall, kind, pid, a, b, c in records:
        if kind == SEND:
            label = send_labels.get(c)
            if label is None:
                label = send_labels[c] = f"send {c}"
            out: list[int] = []
            sends[(a << 32) + b] = (at, pid, out)
            emit((INSTANT, at, wall, pid, "send", label, out, None))
        elif kind == RECV:
            label = recv_labels.get(c)
            if label is None:
                label = recv_labels[c] = f"recv {c}"
            sent = sends.get((a << 32) + b)
            if sent is None:
                emit((INSTANT, at, wall, pid, "recv", label, None, None))
            else:
                flow_id = len(flows) + 1
                sent[2].append(flow_id)
                flows.append((flow_id, sent[1], sent[0], pid, at, c, b))
                emit((INSTANT, at, wall, pid, "recv", label, None, flow_id))
        elif kind == STATE:
            close(pid, at)
            states[pid] = (a, b, c)
            if a in _ENDED:
                emit((INSTANT, at, wall, pid, "end", slice_name(a, c), None, None))
            else:
                begin(pid, at, wall)
        elif kind == RUN:
            if on_cpu != (pid,):
                switch(at, wall, (pid,))
        elif kind == BURST:
            switch(at, wall, a)
        elif kind == VALUE:
            emit((COUNT, at, wall, a, b))
        elif kind == OUTPUT:
            emit((INSTANT, at, wall, pid, a, b, None, None))
        elif kind == BREAK:
            where = c if c is not None else f"pc 0x{b:04x}" if b is not None else "?"
            emit((INSTANT, at, wall, pid, "break", f"{a} at {where}", None, None))
        elif kind == TRACE:
            emit((STEP, at, pid, a, b))
    end = recording.end
    for pid in sorted(opened):
        emit((END, end, pid))
    if voided:
        events = [event for event in events if event is not None]
    return Timeline(dict(recording.names), dict(recording.values), events, flows,
                    origin, end, recording.start_wall, recording.end_wall, recording.dropped)
