"""Instruction trace: a ring of the last N retired instructions per task, exported as
JSON lines and read back.

Records are kept as the machine's `TraceRecord`s and turned into JSON only when asked
for.  The format (`hsx.trace/1`, docs/debugger.md) keeps the prior tool's required
fields `seq, pid, pc, opcode` and its `changed_regs`/`mem_access` shapes; `seq` is the
task's retired-instruction count after the instruction, so it is unique per task and
says how far apart two records are.  A compact pair is one record (one step): its text
both operations joined by " | ", `mem_access` its first memory access and `mem_access2`
its second when it made two.
"""
from __future__ import annotations

import json
import os
from collections import deque
from dataclasses import dataclass
from typing import Any, Iterable

from hsx.isa import Pair, decode, format_instruction
from hsx.kernel.task import Task
from hsx.vm import TraceRecord

from . import errors as E
from .errors import DebugError
from .tap import Taps

FORMAT = "hsx.trace/1"
_KEY = "trace"
TOTAL_RECORDS = 1 << 20          # records all rings together may hold (a few hundred MiB)


class TraceBuffers:
    def __init__(self, taps: Taps, max_size: int, events=None) -> None:
        """`max_size` (the profile's `trace_records`) is a ring's default size and its
        cap: a larger one is clamped to it.  `events` (the kernel's EventBus) gets a
        `trace_step` event per traced instruction while anyone subscribes to them."""
        self.taps = taps
        self.max_size = max_size
        self.events = events
        self._rings: dict[int, deque[TraceRecord]] = {}
        self._on: set[int] = set()

    def on(self, task: Task, size: int | None = None) -> dict[str, Any]:
        """Start recording (a fresh ring of `size`, default and at most the profile's
        trace_records; a clamped size is reported in `warnings`)."""
        size = self.max_size if size is None else size
        if not isinstance(size, int) or isinstance(size, bool) or size < 1:
            raise DebugError(E.BAD_ARGUMENT, f"trace size must be a positive integer, not {size!r}")
        if self.max_size < 1:
            raise DebugError(E.BAD_ARGUMENT, "this executive's profile keeps no instruction "
                             "trace (trace_records is 0)")
        warnings = []
        if size > self.max_size:
            warnings.append(f"size_clamped:{self.max_size}")
            size = self.max_size
        self._rings.pop(task.pid, None)
        self._make_room(size)
        ring: deque[TraceRecord] = deque(maxlen=size)
        self._rings[task.pid] = ring
        self._on.add(task.pid)
        self.taps.add(task, _KEY, *self._observer(task.pid, ring))
        status = self.status(task.pid)
        if warnings:
            status["warnings"] = warnings
        return status

    def _make_room(self, size: int) -> None:
        """Rings no longer recording (their task ended, or trace.off) go, oldest first,
        while a new ring of `size` would not fit in TOTAL_RECORDS; then it must fit."""
        in_use = sum(ring.maxlen or 0 for ring in self._rings.values())
        for pid in [pid for pid in self._rings if pid not in self._on]:
            if in_use + size <= TOTAL_RECORDS:
                break
            in_use -= self._rings.pop(pid).maxlen or 0
        if in_use + size > TOTAL_RECORDS:
            raise DebugError(E.BAD_ARGUMENT, f"a trace of {size} records would bring the rings "
                             f"recording now to {in_use + size}, over {TOTAL_RECORDS}: give a "
                             "smaller size or stop another trace (trace.off)")

    def _observer(self, pid: int, ring: deque[TraceRecord]):
        """What the task's tap calls per record, and at the end of each run: records
        go to the ring at once; their `trace_step` events (while anyone subscribes) are
        emitted together when the run ends, or before any other event (`defer`)."""
        events = self.events
        if events is None:
            return ring.append, None
        pending: list[TraceRecord] = []
        wants, defer = events.wants, events.defer

        def flush() -> None:
            if len(pending) > 1:
                items = step_events(pid, pending)
                pending.clear()
                events.emit_batch("trace_step", items)
            elif pending:                # a run of one instruction (quantum 1, a step)
                events.emit("trace_step", pid, step_event(pending.pop()))

        def observe(record: TraceRecord) -> None:
            ring.append(record)
            if not pending:              # the first of a run: is anyone listening?
                if not wants("trace_step"):
                    return
                defer(flush)
            pending.append(record)
        # At the end of a run: flush through the bus, which also forgets `flush` (no
        # second call when the batch is emitted).
        return observe, events.flush_deferred

    def off(self, task: Task) -> dict[str, Any]:
        """Stop recording; what was recorded stays readable."""
        self._on.discard(task.pid)
        self.taps.remove(task, _KEY)
        return self.status(task.pid)

    def status(self, pid: int) -> dict[str, Any]:
        ring = self._rings.get(pid)
        return {"pid": pid, "enabled": pid in self._on, "format": FORMAT,
                "capacity": ring.maxlen if ring is not None else self.max_size,
                "count": len(ring) if ring is not None else 0}

    def records(self, pid: int, limit: int | None = None) -> list[dict[str, Any]]:
        """The newest `limit` records (all by default), oldest first."""
        ring = self._rings.get(pid, ())
        chosen = list(ring)
        if limit is not None:
            chosen = chosen[-limit:] if limit > 0 else []
        return [record_json(pid, r) for r in chosen]

    def export_lines(self, task: Task, limit: int | None = None) -> list[str]:
        """A header line and the records, as JSON lines (the `hsx.trace/1` format)."""
        records = self.records(task.pid, limit)
        header = {"format": FORMAT, "pid": task.pid, "app": task.app_name, "count": len(records)}
        return [json.dumps(item, sort_keys=True) for item in [header, *records]]


def record_json(pid: int, record: TraceRecord) -> dict[str, Any]:
    ins = decode(record.word)
    out: dict[str, Any] = {
        "seq": record.steps, "pid": pid, "pc": record.pc, "opcode": record.word >> 24,
        "word": record.word,
        "text": format_instruction(ins, record.pc) if ins is not None else f".word 0x{record.word:08X}",
        "changed_regs": [f"R{n}" for n in sorted(record.changed)],
        "regs": {f"R{n}": new for n, (_, new) in sorted(record.changed.items())},
        "flags": record.psw_after,
    }
    for key, m in (("mem_access", record.memory), ("mem_access2", record.memory2)):
        if m is not None:
            out[key] = {"op": m.op, "address": m.addr, "width": m.width, "value": m.value}
    return out


_SPELLED: dict[tuple[int, int], tuple[str | None, str | None, list[str] | None]] = {}
_REG_NAMES = tuple(f"R{n}" for n in range(16))


def _spelled(word: int, pc: int) -> tuple[str | None, str | None, list[str] | None]:
    """(mnemonic, text, each operation's text if a pair) of the instruction `word` at
    `pc`, decoded once; a pair's mnemonic is its first operation's."""
    found = _SPELLED.get((word, pc))
    if found is None:
        if len(_SPELLED) > 1 << 16:
            _SPELLED.clear()
        ins = decode(word)
        if ins is None:
            found = None, None, None
        elif isinstance(ins, Pair):
            found = (ins.first.op.mnemonic, format_instruction(ins, pc),
                     [format_instruction(half, pc) for half in ins.halves])
        else:
            found = ins.op.mnemonic, format_instruction(ins, pc), None
        _SPELLED[(word, pc)] = found
    return found


def step_event(record: TraceRecord) -> dict[str, Any]:
    """The data of a `trace_step` event: pc, the instruction, the registers it changed
    (new values) and the memory it wrote (old and new; a pair's writes in order)."""
    return step_events(0, [record])[0][1]


def step_events(pid: int, records: list[TraceRecord]) -> list[tuple[int, dict[str, Any]]]:
    """(pid, `step_event` data) of each of `records`, for `EventBus.emit_batch`."""
    out = []
    spelled, names = _SPELLED, _REG_NAMES
    for record in records:
        pc = record.pc
        found = spelled.get((record.word, pc))
        mnemonic, text, pair = found if found is not None else _spelled(record.word, pc)
        changed = record.changed
        if not changed:
            regs = {}
        elif len(changed) == 1:
            for n, (_, new) in changed.items():
                regs = {names[n]: new}
        else:
            regs = {names[n]: new for n, (_, new) in changed.items()}
        data: dict[str, Any] = {"pc": pc, "steps": record.steps, "mnemonic": mnemonic,
                                "text": text, "changed_regs": regs, "psw": record.psw_after}
        m = record.memory
        if m is not None and m.op == "write":
            data["mem_writes"] = [{"addr": m.addr, "width": m.width, "old": m.old,
                                   "new": m.value}]
        if pair is not None:
            data["pair"] = pair
            m = record.memory2
            if m is not None and m.op == "write":
                data.setdefault("mem_writes", []).append(
                    {"addr": m.addr, "width": m.width, "old": m.old, "new": m.value})
        out.append((pid, data))
    return out


@dataclass(frozen=True)
class TraceFile:
    header: dict[str, Any]
    records: list[dict[str, Any]]


_REQUIRED = ("seq", "pid", "pc", "opcode")


def load_trace(path: str | os.PathLike) -> TraceFile:
    """Read a file written by `trace_export` (or records without a header line)."""
    try:
        with open(path, encoding="utf-8") as src:
            return parse_trace(src, str(path))
    except OSError as error:
        raise DebugError(E.TRACE_FILE, f"{path}: {error}") from None


def parse_trace(lines: Iterable[str], source: str) -> TraceFile:
    """Trace JSON lines -> header and records; DebugError names the bad line."""
    header: dict[str, Any] = {}
    records = []
    try:
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            item = json.loads(line)
            if not isinstance(item, dict):
                raise ValueError(f"line {number} is not a JSON object")
            if "format" in item and not records and not header:
                if item["format"] != FORMAT:
                    raise ValueError(f"format {item['format']!r} is not {FORMAT}")
                header = item
                continue
            missing = [k for k in _REQUIRED if not isinstance(item.get(k), int)]
            if missing:
                raise ValueError(f"line {number}: missing or non-integer {', '.join(missing)}")
            records.append(item)
    except ValueError as error:        # json.JSONDecodeError is a ValueError
        raise DebugError(E.TRACE_FILE, f"{source}: {error}") from None
    return TraceFile(header, records)
