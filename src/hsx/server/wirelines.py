"""Events on their way out: the line each becomes, encoded once, and the lines of many
encoded together.

A `Wire` is a kernel event shared by every subscription queue that holds it; its line
(compact JSON, the envelope `{seq, ts, type, pid, data}`) is made at most once.  What one
queue alone holds is encoded when taken, up to a write's worth at a time in one orjson
call (`joined_lines`): one call per event cost several times more, most of it
allocating and freeing each line's buffer.  An `OutputRun` is a task's consecutive
output writes joined for one subscriber (`coalesce_ms`).
"""
from __future__ import annotations

from typing import Any

import orjson

from hsx.kernel.events import Event

from .framing import encode


class Wire:
    """A kernel event on its way out: shared by every queue, encoded at most once."""

    __slots__ = ("event", "seq", "shared", "_line", "_ts_offset")

    def __init__(self, event: Event, ts_offset: float) -> None:
        self.event = event
        self.seq = event.seq
        self.shared = False              # offered to more than one queue
        self._line: bytes | None = None
        self._ts_offset = ts_offset

    def envelope(self) -> dict[str, Any]:
        """The event as the wire has it."""
        return _envelopes([self])[0]

    def line(self) -> bytes:
        line = self._line
        if line is None:
            line = self._line = encode(self.envelope())
        return line


def _envelopes(wires: list[Wire]) -> list[dict[str, Any]]:
    """The events as the wire has them, the kernel's time stamp in epoch seconds to the
    microsecond (worked out once for events that share one: a batch's)."""
    envelopes = []
    add = envelopes.append
    kernel_ts = offset = ts = None
    for wire in wires:
        e = wire.event
        if e.ts != kernel_ts or wire._ts_offset != offset:
            kernel_ts, offset = e.ts, wire._ts_offset
            ts = _epoch_us(kernel_ts, offset)
        add({"seq": e.seq, "ts": ts, "type": e.type, "pid": e.pid, "data": e.data})
    return envelopes


_NEXT = b',{"seq":'              # where one event follows another in a JSON array of them
_NEXT_LINE = b'\n{"seq":'


def joined_lines(items: list["Wire | OutputRun"]) -> bytes:
    """The wire lines of `items`, concatenated.  Consecutive events no other queue holds
    are encoded together (`_encode_together`); the others alone, once (`line`)."""
    parts: list[bytes] = []
    together: list[Wire] = []
    for item in items:
        if type(item) is Wire and not item.shared and item._line is None:
            together.append(item)
            continue
        if together:
            parts.append(_encode_together(together))
            together = []
        parts.append(item.line())
    if together:
        parts.append(_encode_together(together))
    return parts[0] if len(parts) == 1 else b"".join(parts)


def _encode_together(wires: list[Wire]) -> bytes:
    """One orjson call for all of `wires`: a JSON array of their envelopes, cut into
    lines where one envelope follows another.  `,{"seq":` can stand only there or
    inside an event's data (in a string a quote is always escaped): when it is found
    more often than there are boundaries, or orjson refuses something (see
    `framing.encode`), each is encoded alone."""
    if len(wires) > 1:
        try:
            blob = orjson.dumps(_envelopes(wires), default=_default)
        except (orjson.JSONEncodeError, TypeError):
            pass
        else:
            if blob.count(_NEXT) == len(wires) - 1:
                return blob[1:-1].replace(_NEXT, _NEXT_LINE) + b"\n"
    return b"".join([wire.line() for wire in wires])


def _epoch_us(kernel_ts: float, offset: float) -> float:
    """Wall-clock seconds to the microsecond, as round(ts, 6) gives them, for a fifth
    of its cost."""
    return int((kernel_ts + offset) * 1e6 + 0.5) / 1e6


def _default(value: Any) -> Any:
    return value.to_dict() if hasattr(value, "to_dict") else str(value)


class OutputRun:
    """Consecutive writes of one task to one stream, queued for one subscriber; written
    as one event: the texts joined, `writes` counting them, the last write's `seq` (so
    `since_seq` and `events.ack` stay exact) and the first one's `ts`."""

    __slots__ = ("event", "seq", "first_seq", "writes", "chars", "_texts", "_ts_offset")

    def __init__(self, first: Wire) -> None:
        self.event = first.event
        self.seq = self.first_seq = first.seq
        self.writes = 1
        self._texts = [first.event.data.get("text", "")]
        self.chars = len(self._texts[0])
        self._ts_offset = first._ts_offset

    def add(self, wire: Wire) -> None:
        text = wire.event.data.get("text", "")
        self._texts.append(text)
        self.chars += len(text)
        self.writes += 1
        self.seq = wire.seq

    def line(self) -> bytes:
        e = self.event
        return encode({"seq": self.seq, "ts": _epoch_us(e.ts, self._ts_offset), "type": e.type,
                       "pid": e.pid, "data": {"text": "".join(self._texts),
                                              "writes": self.writes}})
