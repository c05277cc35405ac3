"""Recording the executive's timeline into a bounded ring (docs/timeline.md).

A `Recorder` follows one kernel while it records: the kernel's run loop tells it where
each turn starts (`Kernel.timeline`), the mailboxes tell it of each message sent and
received (`MailboxManager.message_hook`: no event is built for those), and it listens
to the event stream for state changes, value changes, output and breakpoint stops.
Each fact becomes one record, stamped with the executive's instruction clock (the
count of instructions retired by all tasks: exact, and the same on every run of the
same programs) and the wall time beside it (the executive's clock as Unix seconds:
real time in `hsx run` and `hsx execd`).

Off, it costs nothing: no hook, no event listener.  The ring is bounded in bytes
(`budget`, 64 MiB by default): when full, the oldest records go, and what each task was
doing at the ring's start is kept aside (`baseline`) so the timeline still begins with
every task's state.
"""
from __future__ import annotations

import time
from collections import deque
from typing import TYPE_CHECKING, Any, NamedTuple

from hsx.isa.f16 import f16_to_float
from hsx.kernel.mailbox.manager import HOST_PID
from hsx.kernel.registry.constants import split_oid
from hsx.kernel.registry.model import qualified_name

if TYPE_CHECKING:
    from hsx.kernel.events import Event
    from hsx.kernel.executive import Kernel
    from hsx.kernel.task import Task

# Record kinds.  A record is (at, wall, kind, pid, a, b, c); what a, b and c hold:
STATE = 0       # state, reason, detail ("app:readings", "50 ms", "breakpoint")
RUN = 1         # -, -, -: pid is on the CPU from `at`
BURST = 2       # pids (sorted tuple), instructions, -: they run round robin from `at`
SEND = 3        # descriptor, message seq, mailbox name
RECV = 4        # descriptor, message seq, mailbox name
VALUE = 5       # oid, value (float), -
OUTPUT = 6      # "stdout"/"stderr", text, -
BREAK = 7       # reason, pc, where ("main+8", "prog.c:12") or None
TRACE = 8       # pc, instruction text, -

DEFAULT_BUDGET = 64 << 20       # bytes of ring memory
MIN_BUDGET = 64 << 10
MAX_BUDGET = 1 << 30
# What one record costs at most, text aside: the 7-tuple, its timestamp and wall time
# and a sequence number, plus the deque slot (tests/timeline/test_record_export.py checks
# it against tracemalloc).  Output text adds its size (`_text_bytes`).
RECORD_BYTES = 240
MAX_TEXT = 512                  # characters of an output line kept

_OTHER_EVENTS = ("value_registered", "value_changed", "stdout", "stderr", "debug_break")


class Recording(NamedTuple):
    """What a recorder holds, as of one moment: what exporters and views read."""
    records: list[tuple]
    baseline: dict[int | None, tuple]   # pid -> its last STATE record before `records`,
                                        # None -> the last RUN or BURST record before them
    names: dict[int, str]               # pid -> app name
    values: dict[int, str]              # oid -> "group.name" (or "value 0x0201")
    start: int                          # instruction clock where recording started
    end: int                            # ... and where this view of it ends
    start_wall: float
    end_wall: float
    dropped: int                        # records the ring let go


class Recorder:
    def __init__(self, kernel: Kernel, *, budget: int = DEFAULT_BUDGET,
                 instructions: bool = False) -> None:
        if not MIN_BUDGET <= budget <= MAX_BUDGET:
            raise ValueError(f"the ring's budget must be {MIN_BUDGET}..{MAX_BUDGET} bytes")
        self.kernel = kernel
        self.budget = budget
        self.instructions = instructions
        self.ring: deque[tuple] = deque()
        self.bytes = 0
        self.dropped = 0
        self.baseline: dict[int | None, tuple] = {}
        self.names: dict[int, str] = {}
        self.values: dict[int, str] = {}
        self.recording = False
        self.start_at = self.stop_at = kernel.total_instructions
        self.start_wall = self.stop_wall = time.time()
        self._strings: dict[str, str] = {}
        self._clock = kernel.clock.now  # the executive's clock, which events carry ...
        self._wall_offset = 0.0         # ... and Unix time minus it
        self._running: int | None = None                # the pid on the CPU, if one
        self._sharing: frozenset[int] = frozenset()     # ... or those round robin at quantum 1
        self._mailbox_names: dict[int, str | None] = {} # descriptor -> target, while it lives
        # (instruction clock at a turn's start, the running context's step counter
        # (`Context.step_counter`) or None between turns, its steps then)
        self._anchor: tuple[int, Any, int] = (kernel.total_instructions, None, 0)
        self._turns: dict[int, tuple[int, int]] = {}    # pid -> (at, its steps then)
        # Bound once: the bus tells listeners apart by identity, and each `self.method`
        # is a new bound method.
        self._listeners = ((self._on_freed, {"mailbox_freed"}),
                           (self._on_state, {"task_state"}),
                           (self._on_event, set(_OTHER_EVENTS)))
        self._on_trace = self._on_trace_event
        self._on_message = self._message

    # ------------------------------------------------------------------ control

    def start(self) -> None:
        """Begin recording (afresh): hook into the run loop, the mailboxes and the event
        stream, and record every live task's state as it is now."""
        kernel = self.kernel
        if kernel.timeline is not None and kernel.timeline is not self:
            raise RuntimeError("another timeline recorder is attached to this kernel")
        self.ring.clear()
        self.bytes = self.dropped = 0
        self.baseline.clear()
        self._running, self._sharing = None, frozenset()
        self._mailbox_names.clear()
        self._turns.clear()
        self.start_at = kernel.total_instructions
        self.start_wall = time.time()
        self._wall_offset = self.start_wall - kernel.clock.now()
        self._anchor = (self.start_at, None, 0)
        for task in kernel.tasks.values():
            self.names[task.pid] = task.app_name
            if not task.ended:
                state = task.state.value
                detail = self._wait_detail(task)
                self._add((self.start_at, self.start_wall, STATE, task.pid,
                           state, "recording_started", detail))
        for info in kernel.values.list():
            self.values[info.oid] = self._value_name(info.oid)
            self._add((self.start_at, self.start_wall, VALUE, info.owner_pid, info.oid,
                       f16_to_float(info.raw), None))
        kernel.timeline = self
        kernel.mailboxes.message_hook = self._on_message
        for listener, types in self._listeners:
            kernel.events.subscribe(listener, types)
        if self.instructions:
            kernel.events.subscribe(self._on_trace, {"trace_step"}, batch=self._on_trace_batch)
        self.recording = True

    def stop(self) -> None:
        """Stop recording; what was recorded stays readable until the next `start`."""
        if not self.recording:
            return
        self.stop_at, self.stop_wall = self.now(), self._wall()
        self.kernel.timeline = None
        self.kernel.mailboxes.message_hook = None
        for listener, _ in self._listeners:
            self.kernel.events.unsubscribe(listener)
        self.kernel.events.unsubscribe(self._on_trace)
        self.recording = False

    def now(self) -> int:
        """The instruction clock: instructions retired by all tasks so far, exact also
        in the middle of a turn (a system call the running task is making)."""
        at, counter, steps = self._anchor
        return at if counter is None else at + counter.steps - steps

    def snapshot(self, since: int | None = None) -> Recording:
        """What is recorded now; with `since`, only the records from that instruction
        on (the state of each task then in `baseline`)."""
        end, end_wall = (self.now(), self._wall()) if self.recording else (self.stop_at,
                                                                            self.stop_wall)
        baseline = dict(self.baseline)
        records = list(self.ring)
        if since is not None:
            first = 0
            for first, record in enumerate(records):
                if record[0] >= since:
                    break
                if record[2] == STATE:
                    baseline[record[3]] = record
                elif record[2] == RUN or record[2] == BURST:
                    baseline[None] = record
            else:
                first = len(records)
            records = records[first:]
        return Recording(records, baseline, dict(self.names), dict(self.values),
                         self.start_at, end, self.start_wall, end_wall, self.dropped)

    def status(self) -> dict[str, Any]:
        end = self.now() if self.recording else self.stop_at
        return {"recording": self.recording, "records": len(self.ring),
                "bytes": self.bytes, "budget": self.budget, "dropped": self.dropped,
                "instructions": self.instructions, "start": self.start_at, "end": end,
                "oldest": self.ring[0][0] if self.ring else None}

    # ------------------------------------------------------------------ the run loop's hook

    def turn(self, task: Task, at: int) -> None:
        """A turn starts.  Recorded only when another task takes the CPU: a turn of
        one of the tasks a quantum-1 round robin interleaves is part of that round
        robin (the task's system call, run on its own), not a switch."""
        counter = task.ctx.step_counter
        steps = counter.steps
        self._anchor = (at, counter, steps)
        pid = task.pid
        if self.instructions:
            self._turns[pid] = (at, steps)
        if pid != self._running and pid not in self._sharing:
            self._running, self._sharing = pid, frozenset()
            self._add((at, self._wall(), RUN, pid, None, None, None))

    def burst(self, pids: list[int], at: int, executed: int) -> None:
        """Quantum-1 round robin among `pids`: recorded when they are not the ones
        already sharing the CPU."""
        self._anchor = (at + executed, None, 0)
        sharing = self._sharing                 # (compared without building a set: hot)
        if len(pids) != len(sharing) or not sharing.issuperset(pids):
            self._running, self._sharing = None, frozenset(pids)
            self._add((at, self._wall(), BURST, None, tuple(sorted(pids)), executed, None))

    # ------------------------------------------------------------------ events

    def _on_event(self, event: Event) -> None:
        """Value changes, output lines and debugger stops."""
        type_, pid, data = event.type, event.pid, event.data
        at, wall = self.now(), event.ts + self._wall_offset
        if type_ == "value_changed" or type_ == "value_registered":
            oid = data["oid"]
            if oid not in self.values:
                self.values[oid] = self._value_name(oid)
            value = data["new_value"] if type_ == "value_changed" else data["value"]
            self._add((at, wall, VALUE, pid, oid, _number(value), None))
        elif type_ == "debug_break":
            where = data.get("symbol")
            if where is not None and data.get("offset"):
                where = f"{where}+{data['offset']}"
            if data.get("file") is not None:
                where = f"{data['file']}:{data.get('line')}"
            self._add((at, wall, BREAK, pid, self._intern(data.get("reason", "break")),
                       data.get("pc"), self._intern(where) if where else None))
        else:                                               # stdout, stderr
            text = data.get("text", "")[:MAX_TEXT]
            self._add((at, wall, OUTPUT, pid, type_, text, None), _text_bytes(text))

    def _on_state(self, event: Event) -> None:
        pid, data = event.pid, event.data
        reason = data.get("reason")
        if reason == "loaded" and data.get("app_name"):
            self.names[pid] = data["app_name"]
        elif pid not in self.names:
            task = self.kernel.tasks.get(pid)
            self.names[pid] = task.app_name if task is not None else f"pid{pid}"
        detail = None
        if reason == "mailbox_wait":
            detail = self.kernel.mailboxes.handle_target(pid, data.get("handle"))
        elif reason == "sleep":
            detail = f"{data.get('ms')} ms"
        elif reason == "debug_break":
            detail = data.get("why")
        elif reason == "returned":
            detail = f"{data.get('how', 'exit')} {data.get('exit_status')}"
        elif reason == "faulted":
            detail = data.get("kind")
        self._add((self.now(), event.ts + self._wall_offset, STATE, pid,
                   self._intern(data["new_state"]), self._intern(reason),
                   self._intern(detail) if detail is not None else None))

    def _on_freed(self, event: Event) -> None:
        self._mailbox_names.pop(event.data["descriptor"], None)

    def _message(self, received: bool, pid: int, descriptor: int, seq: int) -> None:
        """A task sent or received message `seq` of mailbox `descriptor` (the mailbox
        manager's hook, `message_hook`: the hot path, two calls a message)."""
        if pid == HOST_PID:
            return                          # the host's reads of task output
        names = self._mailbox_names
        if descriptor in names:
            name = names[descriptor]
        else:
            name = self.kernel.mailboxes.target_name(descriptor)
            if name is not None and name.startswith("svc:stdio"):
                name = None                 # task output: recorded as output lines
            names[descriptor] = name = self._intern(name) if name is not None else None
        if name is None:
            return
        at, counter, steps = self._anchor
        if counter is not None:
            at += counter.steps - steps
        self.ring.append((at, self._clock() + self._wall_offset, RECV if received else SEND,
                          pid, descriptor, seq, name))
        self.bytes += RECORD_BYTES
        if self.bytes > self.budget:
            self._evict()

    def _on_trace_event(self, event: Event) -> None:
        self._on_trace_batch([event])

    def _on_trace_batch(self, events: list[Event]) -> None:
        offset = self._wall_offset
        for event in events:
            pid, data = event.pid, event.data
            turn = self._turns.get(pid)
            if turn is None:
                continue
            at = turn[0] + data["steps"] - 1 - turn[1]       # when the instruction began
            self._add((at, event.ts + offset, TRACE, pid, data["pc"], self._intern(data["text"]),
                       None))

    # ------------------------------------------------------------------ the ring

    def _add(self, record: tuple, extra: int = 0) -> None:
        ring = self.ring
        ring.append(record)
        self.bytes += RECORD_BYTES + extra
        if self.bytes > self.budget:
            self._evict()

    def _evict(self) -> None:
        ring, baseline = self.ring, self.baseline
        while self.bytes > self.budget and ring:
            record = ring.popleft()
            self.dropped += 1
            self.bytes -= RECORD_BYTES + (_text_bytes(record[5]) if record[2] == OUTPUT else 0)
            if record[2] == STATE:
                baseline[record[3]] = record
            elif record[2] == RUN or record[2] == BURST:
                baseline[None] = record         # who was on the CPU

    def _wall(self) -> float:
        """The executive's clock now, as Unix seconds (the wall time of records)."""
        return self._clock() + self._wall_offset

    def _intern(self, text: str) -> str:
        return self._strings.setdefault(text, text)

    def _wait_detail(self, task: Task) -> str | None:
        wait = task.wait
        handle = getattr(wait, "handle", None)
        if handle is not None:
            return self.kernel.mailboxes.handle_target(task.pid, handle)
        ms = getattr(wait, "ms", None)
        return f"{ms} ms" if ms is not None else None

    def _value_name(self, oid: int) -> str:
        info = self.kernel.values.info(oid)
        name = None
        if info is not None:
            name = qualified_name(info.descriptor.group_name, info.descriptor.name)
        group, ident = split_oid(oid)
        return name or f"value {group}:{ident}"


def _text_bytes(text: str) -> int:
    """What `text` costs beyond a record: a byte a character, up to four when it is not
    ASCII (CPython keeps a string in 1, 2 or 4 bytes a character)."""
    return len(text) if text.isascii() else 4 * len(text)


def _number(value: Any) -> float:
    """A value event's number (JSON spells NaN and infinities as strings)."""
    return float(value) if value is not None else float("nan")
