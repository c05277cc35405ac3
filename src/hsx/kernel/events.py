"""The kernel's event stream: every observable change, numbered and time-stamped.

The kernel emits; listeners (the server's session queues, `hsx run`'s stdout pump,
tests) receive.  Building an event costs something, so emitters that fire often ask
`wants(type)` first: with nobody listening for a type, nothing is built.
"""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

Listener = Callable[["Event"], None]


@dataclass(slots=True)
class Event:
    seq: int
    ts: float
    type: str
    pid: int | None
    data: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"seq": self.seq, "ts": self.ts, "type": self.type, "pid": self.pid,
                "data": self.data}


class EventBus:
    """Fan-out of kernel events to listeners, with a bounded history for resync."""

    # Types emitted for every scheduling decision: built only when someone listens.
    HIGH_RATE = frozenset({"scheduler", "trace_step"})

    def __init__(self, now: Callable[[], float], history: int = 4096) -> None:
        self._now = now
        self._listeners: list[tuple[Listener, frozenset[str] | None]] = []
        self._routes: dict[str, list[Listener]] = {}     # event type -> who gets it
        self._seq = 0
        self.history: deque[Event] = deque(maxlen=history)
        self._wanted_high_rate: set[str] = set()

    def subscribe(self, listener: Listener, types: set[str] | None = None) -> None:
        """Call `listener` for every event (or only for `types`, matched exactly or by
        prefix: "mailbox" matches "mailbox_send")."""
        wanted = frozenset(types) if types is not None else None
        self._listeners.append((listener, wanted))
        self._refresh_high_rate()

    def unsubscribe(self, listener: Listener) -> None:
        self._listeners = [(l, t) for l, t in self._listeners if l is not listener]
        self._refresh_high_rate()

    def wants(self, type_: str) -> bool:
        """False when emitting `type_` would reach nobody (for high-rate types)."""
        return type_ not in self.HIGH_RATE or type_ in self._wanted_high_rate

    def emit(self, type_: str, pid: int | None, data: dict[str, Any] | None = None) -> Event:
        self._seq += 1
        event = Event(self._seq, self._now(), type_, pid, data or {})
        if type_ not in self.HIGH_RATE:
            self.history.append(event)
        listeners = self._routes.get(type_)
        if listeners is None:
            listeners = self._routes[type_] = [
                listener for listener, wanted in self._listeners
                if wanted is None or type_matches(type_, wanted)]
        for listener in listeners:
            listener(event)
        return event

    @property
    def last_seq(self) -> int:
        return self._seq

    def _refresh_high_rate(self) -> None:
        self._routes = {}
        self._wanted_high_rate = {
            t for t in self.HIGH_RATE
            if any(w is None or type_matches(t, w) for _, w in self._listeners)}


def type_matches(type_: str, categories: Iterable[str]) -> bool:
    """A category names an event type exactly or by prefix ("mailbox" -> "mailbox_send")."""
    return any(type_.startswith(category) for category in categories)
