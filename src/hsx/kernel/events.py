"""The kernel's event stream: every observable change, numbered and time-stamped.

The kernel emits; listeners (the server's session queues, `hsx run`'s stdout pump,
tests) receive.  Building an event costs something, so emitters that fire often ask
`wants(type)` first: with nobody listening for a type, nothing is built.  Events that
come one by one at a high rate (a task's writes) may be *held* and handed over together
(`hold`), when every listener of their type takes batches.
"""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from itertools import groupby
from operator import attrgetter
from typing import Any, Callable, Iterable

Listener = Callable[["Event"], None]
BatchListener = Callable[[list["Event"]], None]


@dataclass(slots=True)
class Event:
    """One entry of the event stream (docs/protocol.md, "Events")."""

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

    # Types emitted for every scheduling decision or traced instruction (delivered only
    # to those who name them: server/subscriptions.py).
    HIGH_RATE = frozenset({"scheduler", "trace_step"})
    # Types built only while someone listens and never kept in `history`: the high-rate
    # ones and the traffic of every mailbox message, a stdio write's included (building
    # and keeping them was a third of the cost of a task's write).
    TRANSIENT = HIGH_RATE | {"mailbox_send", "mailbox_recv"}

    def __init__(self, now: Callable[[], float], history: int = 4096) -> None:
        self._now = now
        self._listeners: list[tuple[Listener, frozenset[str] | None, BatchListener | None]] = []
        # event type -> who gets it: (listener, its batch form or None)
        self._routes: dict[str, list[tuple[Listener, BatchListener | None]]] = {}
        self._seq = 0
        self.history: deque[Event] = deque(maxlen=history)
        self._unwanted: frozenset[str] = self.TRANSIENT    # transient types nobody wants
        self._deferred: list[Callable[[], None]] = []
        # Held events, oldest first, numbered already; always older than what the
        # `_deferred` producers hold (`hold` flushes those first).
        self._held: list[Event] = []
        self._batched: dict[str, bool] = {}     # type -> every listener has a batch form

    def subscribe(self, listener: Listener, types: set[str] | None = None,
                  batch: BatchListener | None = None) -> None:
        """Call `listener` for every event (or only for `types`, matched exactly or by
        prefix: "mailbox" matches "mailbox_send"); `batch`, when given, takes the events
        of an `emit_batch` or of a flush of held events in one call instead -- after the
        fact: a listener with a batch form accepts events late, at the end of a run."""
        wanted = frozenset(types) if types is not None else None
        self.flush_deferred()                # what came before goes to those there then
        self._listeners.append((listener, wanted, batch))
        self._refresh()

    def unsubscribe(self, listener: Listener) -> None:
        self.flush_deferred()
        self._listeners = [entry for entry in self._listeners if entry[0] is not listener]
        self._refresh()

    def wants(self, type_: str) -> bool:
        """False when emitting `type_` would be in vain: a transient type nobody listens
        to (emitters that fire often ask first, and build nothing then)."""
        return type_ not in self._unwanted

    def emit(self, type_: str, pid: int | None, data: dict[str, Any] | None = None) -> Event:
        if self._deferred or self._held:
            self.flush_deferred()
        self._seq = seq = self._seq + 1
        event = Event(seq, self._now(), type_, pid, {} if data is None else data)
        if type_ not in self.TRANSIENT:
            self.history.append(event)
        for listener, _ in self._route(type_):
            listener(event)
        return event

    def emit_batch(self, type_: str, items: list[tuple[int | None, dict[str, Any]]]) -> None:
        """Events of one type, `(pid, data)` each, in order and with one time stamp: what
        a high-rate producer collected (the switches of a native round robin, the trace
        records of a run).  Listeners with a batch form get them in one call."""
        if self._deferred or self._held:
            self.flush_deferred()
        if not items:
            return
        now, seq = self._now(), self._seq
        events = [Event(n, now, type_, pid, data) for n, (pid, data) in enumerate(items, seq + 1)]
        self._seq = seq + len(events)
        if type_ not in self.TRANSIENT:
            self.history.extend(events)
        for listener, batch in self._route(type_):
            if batch is not None:
                batch(events)
            else:
                for event in events:
                    listener(event)

    def defer(self, flush: Callable[[], None]) -> None:
        """A producer holds events back to emit them together: `flush` emits them, and
        is called before any other event is emitted (so the stream keeps its order) and
        by `flush_deferred`.  Register it again after each flush."""
        if flush not in self._deferred:
            self._deferred.append(flush)

    def hold(self, type_: str, pid: int | None, data: dict[str, Any]) -> None:
        """`emit`, except that while every listener of `type_` has a batch form the
        event is held, with the time stamp it has now, and emitted with the events held
        after it: before any other event, or when the kernel's run ends
        (`flush_deferred`).  Its number, time stamp, place in the stream and history are
        those `emit` would give it; listeners get it later, in one call with the rest.
        A task's writes use it: the bus, the server's queues and its recent output taking
        one write at a time were half of what an output event cost the daemon."""
        batched = self._batched.get(type_)
        if batched is None:
            batched = self._batched[type_] = all(
                batch is not None for _, batch in self._route(type_))
        if not batched:
            self.emit(type_, pid, data)
            return
        if self._deferred:                   # events other producers hold came first
            self.flush_deferred()
        self._seq = seq = self._seq + 1
        self._held.append(Event(seq, self._now(), type_, pid, data))

    def flush_deferred(self) -> None:
        """Emit every held and deferred event, in order."""
        if self._held:
            self._emit_held()
        pending, self._deferred = self._deferred, []
        for flush in pending:
            flush()

    def _emit_held(self) -> None:
        held, self._held = self._held, []
        for type_, run in groupby(held, _TYPE):        # each run of one type in one call
            run = list(run)
            if type_ not in self.TRANSIENT:
                self.history.extend(run)
            # Every listener of a held type has a batch form: `hold` made sure, and a
            # subscription change emits what is held first.
            for _, batch in self._route(type_):
                batch(run)

    @property
    def last_seq(self) -> int:
        return self._seq

    def _route(self, type_: str) -> list[tuple[Listener, BatchListener | None]]:
        """Who gets events of `type_` (worked out once per subscription change)."""
        route = self._routes.get(type_)
        if route is None:
            route = self._routes[type_] = [
                (listener, batch) for listener, wanted, batch in self._listeners
                if wanted is None or type_matches(type_, wanted)]
        return route

    def _refresh(self) -> None:
        self._routes = {}
        self._batched = {}
        self._unwanted = frozenset(
            t for t in self.TRANSIENT
            if not any(w is None or type_matches(t, w) for _, w, _ in self._listeners))


_TYPE = attrgetter("type")


def type_matches(type_: str, categories: Iterable[str]) -> bool:
    """A category names an event type exactly or by prefix ("mailbox" -> "mailbox_send")."""
    return any(type_.startswith(category) for category in categories)
